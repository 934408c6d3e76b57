/// The REPL's prompt as the config file's `prompt = FORMAT` writes it, psql-style: `%u` the
/// user logged in as (empty for a guest), `%@` that user and an `@` (nothing for a guest), `%h`
/// the host, `%p` the port, `%s` the connection's state (empty while connected, `not connected`
/// otherwise), `%%` a percent sign. Anything else is printed as written.
public struct PromptFormat: Sendable, Equatable {
  public var format: String

  public init(_ format: String) { self.format = format }

  /// `stockroom alice@127.0.0.1:7878> `, as the REPL has always drawn it.
  public static let standard = PromptFormat("stockroom %@%h:%p> ")

  /// The prompt for this state; nil `host` and `port` while not connected.
  public func expand(user: String?, host: String, port: UInt16, connected: Bool) -> String {
    var out = ""
    var escaped = false
    for character in format {
      guard escaped else {
        if character == "%" { escaped = true } else { out.append(character) }
        continue
      }
      escaped = false
      switch character {
      case "u": out += user ?? ""
      case "@": out += user.map { $0 + "@" } ?? ""
      case "h": out += host
      case "p": out += String(port)
      case "s": out += connected ? "" : "not connected"
      case "%": out += "%"
      default: out += "%" + String(character)
      }
    }
    return escaped ? out + "%" : out
  }
}
