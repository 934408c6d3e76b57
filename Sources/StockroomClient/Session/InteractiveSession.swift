import CStockroomShims
import StockroomProtocol

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The REPL: one person, one terminal, one server that may come and go.
///
/// The session remembers what it told the server (LOGIN, WATCH) so a reconnect can say it
/// again, and keeps the names completion offers up to date. The password it logs in with stays
/// in memory only, for reconnects; it is never written anywhere.
///
/// Its jobs are in files of their own: `+LocalCommands` (the `:` commands), `+Repeat`
/// (`:watch`), `+Connect` (`:connect`), `+Requests` (server commands and their replies),
/// `+DiaryBody` (`$EDITOR` for a diary body), `+Reconnect` (outages), `+Events` (events above
/// the prompt) and `+Names` (completion's names); passwords left off a line are asked for by
/// `MissingPasswords`.
public final class InteractiveSession {
  /// Where to connect; `:connect` changes it.
  var options: ClientOptions
  var renderer: Renderer
  let defaultMode: OutputMode
  let editor: LineEditor
  var connection: ServerLink? = nil
  /// What a reconnect logs in with: `-u`'s, or the last LOGIN or REGISTER that succeeded.
  var credentials: Credentials?
  /// Who the server last said this connection is; nil for a guest. The prompt shows it.
  var identity: Identity? = nil
  /// The WATCH arguments in force; nil when not watching, empty for everything.
  var watching: [String]? = nil
  var nameCache = CatalogNamesCache()
  var reconnector = Reconnector()
  /// `:timing on`.
  var timing = false
  /// `:wide`, first as `--wide` says.
  var wide: Bool
  /// The last paged list shown, for `:next` and `:prev`.
  var pageCursor: PageCursor? = nil
  /// `:pager`; replies are paged only when stdout is a terminal as well.
  var paging: Bool
  let pagerCommand: String?
  var pagerWarned = false
  let outputIsTerminal: Bool
  let textEditor: ExternalEditor
  /// `:!`, `| COMMAND` and `> FILE`.
  let handOff: ShellHandOff

  public init?(
    options: ClientOptions, credentials: Credentials?, renderer: Renderer, historyFile: String?,
    environment: [String: String] = [:]
  ) {
    guard
      let editor = LineEditor(program: "stockroom", historyFile: historyFile, palette: renderer.palette)
    else { return nil }
    self.options = options
    self.renderer = renderer
    self.defaultMode = renderer.mode
    self.renderer.advice = .repl
    if options.replJSON { self.renderer.mode = .json }
    self.editor = editor
    self.credentials = credentials
    paging = options.pager != .off
    wide = options.wide
    timing = options.timing
    // `:pager on` after `pager = off` in the config still has a pager to start.
    pagerCommand = (options.pager == .off ? PagerSetting.automatic : options.pager).command(environment: environment)
    outputIsTerminal = isatty(1) == 1
    textEditor = ExternalEditor(environment: environment)
    handOff = ShellHandOff(environment: environment)
    editor.complete = { [unowned self] line in completion(for: line) }
    editor.hint = { [unowned self] line in Completer(names: nameCache.names).hint(line) }
    if options.highlight { editor.highlight = { [unowned self] line in nameCache.highlighter.spans(line) } }
    editor.onReadable = { [unowned self] in serveIdleSocket() }
    // The editor's wait doubles as the retry timer: attempts happen between keys, so typing
    // stays live, and nothing polls faster than the backoff.
    editor.timeout = { [unowned self] in millisecondsToRetry() }
    editor.onTimeout = { [unowned self] in retryIfDue() }
  }

  public var prompt: String {
    // Not connected, the standard prompt says only that; a format of the user's says what it says.
    guard let connection else {
      guard options.prompt != .standard else { return "not connected> " }
      return options.prompt.expand(user: identity?.name, host: options.host, port: options.port, connected: false)
    }
    return options.prompt.expand(
      user: identity?.name, host: connection.host, port: connection.port, connected: true)
  }

  public func run() -> Int32 {
    do {
      try connect()
      tell(banner(), renderer.palette.dim)
    } catch {
      tell("could not connect: \(error.message)", renderer.palette.error)
    }
    if runStartup() { return 0 }
    while true {
      // Between commands, not between keys: a key never waits for the server, and an item
      // listed meanwhile is known before the next line is coloured.
      if options.highlight, renderer.palette.isEnabled { refreshNamesIfNeeded() }
      editor.prompt = prompt
      editor.watched = connection?.fd
      guard case .line(let raw) = editor.readLine() else {
        TerminalOutput.write("\n")
        return 0
      }
      let line = raw.trimmingSpaces()
      guard !line.isEmpty else { continue }
      editor.remember(line)
      if run(line) { return 0 }
    }
  }

  /// The config file's `startup =` lines, each as if typed (and echoed dim, so the screen says
  /// where their output came from), before the first prompt.
  private func runStartup() -> Bool {
    for line in options.startup {
      say(renderer.palette.dim(prompt + line) + "\n")
      if run(line) { return true }
    }
    return false
  }

  /// One line, typed or from the config file: a client command, or a request and where its
  /// reply goes. True when the line ends the session.
  private func run(_ line: String) -> Bool {
    // `:!` lines are the shell's whole, `|` and `>` included.
    if let local = LocalCommand.parse(line), case .shell = local { return perform(local) }
    guard let redirected = redirect(line) else { return false }
    if let local = LocalCommand.parse(redirected.command) {
      guard let target = redirected.target else { return perform(local) }
      // `:watch 2 STOCK | grep kiwi`: each round through the command, as `watch 'cmd | grep'`.
      if case .watch(let words) = local, case .pipe(let command) = target {
        repeatEvery(words, through: command)
        return false
      }
      // What HELP, :help and :history print can go on as a reply does; the others print here.
      guard let text = listing(local, palette: Palette(isEnabled: false)) else {
        say(
          renderer.palette.error(
            "| and > take a server command's reply, HELP, :help or :history, and :watch takes | COMMAND;"
              + " other : commands print here") + "\n")
        return false
      }
      handedOff(handOff.deliver(text, to: target), to: target, reply: nil)
      return false
    }
    guard let edited = withTextEdited(redirected.command) else { return false }
    switch MissingPasswords.askedFor(in: edited) {
    case .line(let complete):
      execute(complete, to: redirected.target)
    case .refused(let reason):
      tell(reason, renderer.palette.error)
    }
    return false
  }

  /// The line split at its first unquoted `|` or `>`; nil when the split is wrong, which has
  /// been said. A line that carries a password is never split: no part of it may become a
  /// shell command or a file name.
  private func redirect(_ line: String) -> OutputRedirect? {
    guard HistoryPolicy.shouldRemember(line) else { return OutputRedirect(command: line, target: nil) }
    do {
      return try OutputRedirect.split(line)
    } catch {
      tell(error.description, renderer.palette.error)
      return nil
    }
  }

  /// One line on arrival, as psql and redis-cli give: who answered, and where to start.
  func banner() -> String {
    var server = connection?.greeting ?? ""
    if server.hasPrefix("OK ") { server.removeFirst(3) }
    if let end = server.firstIndex(of: ";") { server = String(server[..<end]) }
    if server.hasSuffix(" ready") { server.removeLast(" ready".count) }
    let answered = server.isEmpty ? "" : " (\(server))"
    return "Connected to \(options.host):\(options.port)\(answered). HELP lists the commands, Tab completes,"
      + " Ctrl-D leaves."
  }

  func say(_ text: String) { editor.printAbove(text) }

  /// A message of the client's own, broken at spaces to the terminal's width (the width of the
  /// window even with `:wide on`, which is for tables) and each line styled: the terminal
  /// would otherwise cut it in the middle of a word, as server ERR lines no longer are.
  func tell(_ text: String, _ style: (String) -> String) {
    say(wrapped(text, style))
  }

  func wrapped(_ text: String, _ style: (String) -> String) -> String {
    let width = outputIsTerminal ? Int(sr_terminal_columns(1)) : 0
    return TextWrap.lines(text, width: width, hanging: 2).map { style($0) + "\n" }.joined()
  }
}
