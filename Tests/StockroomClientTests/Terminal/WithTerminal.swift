/// One test's shop and terminal: a real server on a loopback port and `stockroom`'s own tmux,
/// the tmux server stopped on every way out of `body`, a failed expectation or a throw alike.
/// A test that needs an idle timeout or accounts passes the server it made.
func withTerminal(
  _ server: ShopServer, historyFile: String? = nil, _ body: (ShopServer, TerminalSession) throws -> Void
) throws {
  let terminal = try TerminalSession(historyFile: historyFile)
  defer { terminal.stop() }
  try body(server, terminal)
}

/// The same with a shop as `ShopServer()` starts it.
func withTerminal(_ body: (ShopServer, TerminalSession) throws -> Void) throws {
  try withTerminal(try ShopServer(), body)
}
