import CStockroomShims
import StockroomProtocol
import StockroomSystem

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
public final class InteractiveSession {
  /// Where to connect; `:connect` changes it.
  private var options: ClientOptions
  private var renderer: Renderer
  private let defaultMode: OutputMode
  private let editor: LineEditor
  private var connection: Connection? = nil
  /// What a reconnect logs in with: `-u`'s, or the last LOGIN or REGISTER that succeeded.
  private var credentials: Credentials?
  /// Who the server last said this connection is; nil for a guest. The prompt shows it.
  private var identity: Identity? = nil
  /// The WATCH arguments in force; nil when not watching, empty for everything.
  private var watching: [String]? = nil
  private var names = CatalogNames()
  /// The line's colours as it is typed, read from `names` as last fetched.
  private var highlighter = LineHighlighter(names: CatalogNames())
  private var namesFetched: Double = 0
  private var namesStale = true
  private var lossAnnounced = false
  /// When the next reconnect attempt is due (monotonic seconds); nil while connected, and
  /// before the first connection, where a failure is the user's to fix rather than an outage.
  private var nextRetry: Double? = nil
  /// The waits between background attempts, the same schedule as the board's.
  private var backoff = RetryBackoff()
  /// Set by the server's idle notice: it closed us on purpose, so retrying at once would only
  /// hold a connection it wants back; the next command reconnects instead.
  private var closedForIdleness = false
  /// How long one background attempt may hold the editor: keys typed meanwhile wait in the
  /// terminal and appear when it ends.
  private static let attemptLimitMilliseconds: Int32 = 1000
  /// `:timing on`.
  private var timing = false
  /// `:wide`, first as `--wide` says.
  private var wide: Bool
  /// The last paged list shown, for `:next` and `:prev`.
  private var pageCursor: PageCursor? = nil
  /// `:pager`; replies are paged only when stdout is a terminal as well.
  private var paging: Bool
  private let pagerCommand: String?
  private var pagerWarned = false
  private let outputIsTerminal: Bool
  private let textEditor: ExternalEditor
  /// `:!`, `| COMMAND` and `> FILE`.
  private let handOff: ShellHandOff

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
    editor.hint = { [unowned self] line in Completer(names: names).hint(line) }
    if options.highlight { editor.highlight = { [unowned self] line in highlighter.spans(line) } }
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
    guard let edited = withTextEdited(redirected.command), let complete = withPasswordsAsked(edited) else {
      return false
    }
    execute(complete, to: redirected.target)
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
  private func banner() -> String {
    var server = connection?.greeting ?? ""
    if server.hasPrefix("OK ") { server.removeFirst(3) }
    if let end = server.firstIndex(of: ";") { server = String(server[..<end]) }
    if server.hasSuffix(" ready") { server.removeLast(" ready".count) }
    let answered = server.isEmpty ? "" : " (\(server))"
    return "Connected to \(options.host):\(options.port)\(answered). HELP lists the commands, Tab completes,"
      + " Ctrl-D leaves."
  }

  /// `LOGIN alice` with the password left off: ask for it with echo off rather than send the
  /// line short, so the password is neither on screen nor in scrollback. Nil when the prompt
  /// was cancelled or a new password was typed differently twice. Which words are passwords
  /// comes from the command table.
  private func withPasswordsAsked(_ line: String) -> String? {
    guard let words = try? Tokenizer.words(in: line), let first = words.first,
      var spec = CommandTable.command(named: first.text)
    else { return line }
    var given = words.dropFirst()
    if !spec.subcommands.isEmpty {
      guard let word = given.first, let sub = spec.subcommand(named: word.text) else { return line }
      spec = sub
      given = given.dropFirst()
    }
    let positional = given.filter { !$0.isOption }.map(\.value)
    let missing = spec.arguments.dropFirst(positional.count)
    guard !missing.isEmpty, missing.allSatisfy({ $0.kind == .password }) else { return line }
    var asked: [String] = []
    for argument in missing {
      let label =
        argument.name == "password"
        ? "Password" + (positional.last.map { " for \($0)" } ?? "") + ": "
        : argument.name.prefix(1).uppercased() + argument.name.dropFirst() + " password: "
      // A password being set (REGISTER, PASSWD's new one, USER ADD) is asked twice: unseen, a
      // typo would otherwise become the password. Checking one (LOGIN, PASSWD's old) is not.
      let setsPassword = !spec.flags.contains(.connection) && argument.name != "old"
      do {
        let password = try PasswordPrompt.read(prompt: label)
        // The server's rule, checked before asking again: typing a refused password twice
        // only to be told it is too short wastes the second go.
        if setsPassword, let problem = Self.passwordProblem(password.reveal) {
          tell("\(problem); nothing sent", renderer.palette.error)
          return nil
        }
        if setsPassword, try PasswordPrompt.read(prompt: "Again: ") != password {
          tell("the two passwords differ; nothing sent", renderer.palette.error)
          return nil
        }
        asked.append(Quoting.quote(password.reveal))
      } catch {
        tell("\(error); nothing sent", renderer.palette.error)
        return nil
      }
    }
    // The command words as typed, the positional words requoted with the answers after them,
    // then the options, which mean the same wherever they stand.
    let options = given.filter(\.isOption).map(\.text)
    let head = line.split(separator: " ").prefix(words.count - given.count).joined(separator: " ")
    let body = positional.map { Quoting.quote($0) } + asked + options
    return ([head] + body).joined(separator: " ")
  }

  /// Protocol.md's rule for a password being set (8 to 1,024 bytes, any text), in the
  /// server's words; nil when it passes.
  static func passwordProblem(_ password: String) -> String? {
    let bytes = password.utf8.count
    if bytes < 8 { return "a password needs at least 8 bytes" }
    if bytes > 1024 { return "a password may have at most 1,024 bytes" }
    return nil
  }

  // MARK: - Local commands

  /// True when the session should end.
  private func perform(_ command: LocalCommand) -> Bool {
    if let text = listing(command, palette: renderer.palette) {
      show(text)
      return false
    }
    switch command {
    case .wide(let argument):
      flip(":wide", argument, state: wide, label: "wide tables") { setWide($0) }
    case .page(let step):
      turnPage(step)
    case .connect(let url):
      connect(to: url)
    case .watch(let words):
      repeatEvery(words)
    case .shell(let command):
      if let note = handOff.run(command) { tell(note, renderer.palette.dim) }
    case .clear:
      say("\u{1B}[H\u{1B}[2J")
    case .json(let argument):
      flip(":json", argument, state: renderer.mode == .json, label: "json output") { on in
        renderer.mode = on ? .json : (defaultMode == .json ? .human : defaultMode)
      }
    case .timing(let argument):
      flip(":timing", argument, state: timing, label: "timing") { timing = $0 }
    case .pager(let argument):
      let command = pagerCommand.map { " (\($0))" } ?? ""
      flip(":pager", argument, state: paging, label: "pager", detail: { $0 ? command : "" }, set: { paging = $0 })
    case .top:
      if let refusal = BoardSession.refusal(outputIsTerminal: isatty(1) == 1) {
        tell(refusal, renderer.palette.error)
      } else {
        _ = BoardSession(options: options, credentials: credentials, palette: renderer.palette).run()
      }
    case .unknown(let word):
      tell(LocalCommand.unknownMessage(word), renderer.palette.error)
    case .help, .clientHelp, .history:
      break
    case .quit:
      if let connection {
        try? connection.send("QUIT")
        if let reply = try? waitForReply(on: connection) {
          say(renderer.render(reply))
        }
      }
      return true
    }
    return false
  }

  /// The text of a local command that prints a listing (HELP, `:help`, `:history`), which the
  /// pager or `| COMMAND` and `> FILE` take as they take a reply; nil for the others.
  private func listing(_ command: LocalCommand, palette: Palette) -> String? {
    switch command {
    case .help(let words):
      let width = renderer.terminalWidth().map { $0 > 0 ? $0 : Renderer.defaultWidth }
      return HelpText.render(words, palette: palette, width: width)
    case .clientHelp:
      let width = LocalCommand.summaries.map { DisplayWidth.of($0.usage) }.max() ?? 0
      return LocalCommand.summaries.map { usage, summary in
        palette.header(DisplayWidth.padRight(usage, to: width)) + "  " + summary + "\n"
      }.joined()
    case .history:
      let entries = editor.entries
      let width = String(entries.count).count
      return entries.enumerated().map { index, entry in
        DisplayWidth.padLeft(String(index + 1), to: width) + "  " + entry + "\n"
      }.joined()
    default:
      return nil
    }
  }

  /// What the screen says after a reply went to `| COMMAND` or `> FILE`: a failed hand-off, a
  /// pipe's command that failed, and the reply's status line, so an ERR is never seen only in
  /// a file. A pipe shows its ERR too (its command may have filtered the line away), and an OK
  /// only as the command printed it.
  private func handedOff(_ delivery: ShellHandOff.Delivery, to target: OutputRedirect.Target, reply: Reply?) {
    if case .failed(let problem) = delivery {
      tell(problem, renderer.palette.error)
      return
    }
    if let reply {
      switch target {
      case .file(let name, let append):
        say(renderer.status(reply) + renderer.palette.dim(" (\(append ? "added to" : "written to") \(name))") + "\n")
      case .pipe:
        if !reply.isOK { say(renderer.status(reply) + "\n") }
      }
    }
    if case .exited(let status) = delivery {
      tell("exit status \(status)", renderer.palette.dim)
    }
  }

  // MARK: - Client commands that change the session

  /// One switch: set and said, said alone (`; :json on|off changes it`), or a word that is no
  /// setting refused with those that are.
  private func flip(
    _ command: String, _ argument: SwitchArgument, state: Bool, label: String,
    detail: (Bool) -> String = { _ in "" }, set: (Bool) -> Void
  ) {
    switch argument {
    case .invalid(let word):
      tell(SwitchArgument.refusal(command, word), renderer.palette.error)
    case .report:
      say("\(label) \(state ? "on" : "off")\(detail(state)); \(command) on|off changes it\n")
    case .set(let on):
      set(on)
      say("\(label) \(on ? "on" : "off")\(detail(on))\n")
    }
  }

  private func setWide(_ on: Bool) {
    wide = on
    if on {
      renderer.terminalWidth = { nil }
    } else if outputIsTerminal {
      renderer.terminalWidth = { Int(sr_terminal_columns(1)) }
    } else {
      renderer.terminalWidth = { Renderer.defaultWidth }
    }
  }

  /// `:next` and `:prev`: the last paged list's request again, with the page beside.
  private func turnPage(_ step: Int) {
    guard let pageCursor else {
      say(
        renderer.palette.dim("no paged list yet: :next follows a LIST, STOCKTAKE or DIARY LIST that has pages") + "\n")
      return
    }
    switch pageCursor.line(moving: step) {
    case .success(let line):
      tell(line, renderer.palette.dim)
      execute(line)
    case .failure(let refusal):
      tell(refusal.description, renderer.palette.dim)
    }
  }

  /// `:watch SECONDS COMMAND`: the reply redrawn in place every SECONDS until Ctrl-C or `q`,
  /// or until the command fails; a command that writes runs only after a yes. With `pipe`
  /// each reply goes through that shell command, and what it prints is drawn.
  private func repeatEvery(_ words: [String], through pipe: String? = nil) {
    let request: WatchRequest
    switch WatchRequest.parse(words) {
    case .failure(let refusal):
      tell(refusal.description, renderer.palette.error)
      return
    case .success(let parsed): request = parsed
    }
    let seconds = max(request.seconds, CommandRepeater.minimumSeconds)
    let command = request.command
    if request.writes {
      let name = command.split(separator: " ").prefix(2).joined(separator: " ")
      say(
        renderer.palette.error("\(name) changes the shop, and would again every \(CommandRepeater.format(seconds)) s.")
          + "\n")
      editor.printAbove("Repeat it until Ctrl-C, q or an error? [y/N] ")
      guard CommandRepeater.confirmed() else {
        say("no\n" + renderer.palette.dim("not repeated; nothing sent") + "\n")
        return
      }
      say("yes\n")
    }
    let repeater = CommandRepeater(seconds: seconds, command: command + (pipe.map { " | " + $0 } ?? ""))
    var problem: String? = nil
    repeater.run { [unowned self] () -> CommandRepeater.Round? in
      guard let connection = connected() else { return nil }
      do throws(ClientError) {
        try connection.send(command)
        let reply = try waitForReply(on: connection)
        guard let pipe else { return CommandRepeater.Round(text: renderer.render(reply), failed: !reply.isOK) }
        // The command sees the reply as `| COMMAND` does, without colour; an ERR stops the
        // rounds and is shown whether or not the command kept its line.
        var plain = renderer
        plain.palette = Palette(isEnabled: false)
        switch handOff.filter(plain.render(reply), through: pipe) {
        case .success(let printed):
          return CommandRepeater.Round(
            text: printed + (reply.isOK ? "" : renderer.status(reply) + "\n"), failed: !reply.isOK)
        case .failure(let refusal):
          problem = refusal.description
          return nil
        }
      } catch {
        lost(error)
        return nil
      }
    }
    if let problem { tell(problem, renderer.palette.error) }
    say("\n")
  }

  /// `:connect URL`: opens a connection to the URL's server and, once it is open (and logged
  /// in), closes this one. A user in the URL is asked for a password; without one, another
  /// server gets no login (the password given for this one is not sent elsewhere), the same
  /// server the same login again. As psql's `\c`, a connection or login that fails leaves the
  /// session as it was: same server, same user.
  private func connect(to text: String?) {
    guard let text else {
      tell("usage: :connect stockroom://[USER@]HOST[:PORT] (stockrooms:// for TLS)", renderer.palette.error)
      return
    }
    let url: ConnectionURL
    do {
      url = try ConnectionURL.parse(text)
    } catch {
      tell("\(error)", renderer.palette.error)
      return
    }
    var target = options
    target.host = url.host ?? options.host
    target.tls = url.scheme == .stockrooms ? (options.tls ?? ClientTLS()) : nil
    target.port = url.port ?? (url.scheme == .stockrooms ? ProtocolVersion.defaultTLSPort : ProtocolVersion.defaultPort)
    var login = credentials
    if let user = url.user {
      do {
        login = Credentials(name: user, password: try PasswordPrompt.read(prompt: "Password for \(user): "))
      } catch {
        tell("\(error); \(staying())", renderer.palette.error)
        return
      }
    } else if target.host != options.host || target.port != options.port {
      login = nil
    }
    let opened: (connection: Connection, identity: Identity?)
    do {
      opened = try open(target, login: login)
    } catch {
      tell("\(error.message); \(staying())", renderer.palette.error)
      return
    }
    connection?.close()
    options = target
    credentials = login
    connection = opened.connection
    identity = opened.identity
    pageCursor = nil
    lossAnnounced = false
    closedForIdleness = false
    nextRetry = nil
    backoff.reset()
    editor.watched = opened.connection.fd
    do {
      if let watching {
        let reply = try request((["WATCH"] + watching).joined(separator: " "), on: opened.connection)
        if !reply.isOK { say(renderer.render(reply)) }
      }
      namesStale = true
      refreshNamesIfNeeded()
      tell(banner(), renderer.palette.dim)
    } catch {
      lost(error)
    }
  }

  /// What a failed `:connect` leaves: the session as it was.
  private func staying() -> String {
    guard connection != nil else { return "still not connected, to \(options.host):\(options.port)" }
    let who = identity.map { " as \($0.name)" } ?? ""
    return "still connected to \(options.host):\(options.port)\(who)"
  }

  /// A connection to `target`, logged in with `login` when given; a refused login closes it and
  /// is the error, since a `:connect` that asked for a user must not go on as a guest.
  private func open(_ target: ClientOptions, login: Credentials?) throws(ClientError) -> (Connection, Identity?) {
    let connection = try Connection.open(host: target.host, port: target.port, tls: target.tls)
    guard let login else { return (connection, nil) }
    do throws(ClientError) {
      try connection.send(login.loginLine)
      while true {
        guard case .reply(let reply) = try connection.nextItem() else { continue }
        guard reply.isOK else {
          connection.close()
          let said = VisibleControls.escaped(reply.lines.last ?? "", lineBreaks: false)
          throw ClientError(.loginFailed, "login as \(login.name) at \(target.host):\(target.port) failed: \(said)")
        }
        return (connection, Identity(reply: reply, command: "LOGIN"))
      }
    } catch {
      connection.close()
      throw error
    }
  }

  // MARK: - Server commands

  /// Sends `line` and shows its reply, or hands it, without colour, to `target`.
  private func execute(_ line: String, to target: OutputRedirect.Target? = nil) {
    guard let connection = connected() else { return }
    do {
      let started = MonotonicClock.seconds()
      try connection.send(line)
      let reply = try waitForReply(on: connection)
      let elapsed = MonotonicClock.seconds() - started
      if let target {
        var plain = renderer
        plain.palette = Palette(isEnabled: false)
        // A file keeps the server's words exact; a pipe's output most often ends on this
        // terminal, so it gets them as the screen would.
        if case .file = target { plain.escapesControls = false }
        handedOff(handOff.deliver(plain.render(reply), to: target), to: target, reply: reply)
      } else {
        show(renderer.render(reply))
      }
      if timing { tell("Time: \(Self.milliseconds(elapsed)) ms", renderer.palette.dim) }
      if reply.isOK { remember(after: line, reply: reply) }
      showQueuedEvents(of: connection)
    } catch {
      lost(error)
    }
  }

  /// `12.345`: milliseconds to the microsecond, as psql's `\timing` shows them.
  private static func milliseconds(_ seconds: Double) -> String {
    let micro = Int((seconds * 1_000_000).rounded())
    let fraction = String(micro % 1000)
    return "\(micro / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
  }

  /// Long replies (and HELP) through the pager when they would not fit on the screen.
  private func show(_ text: String) {
    if paging, outputIsTerminal, let pagerCommand,
      Pager.isTaller(text, rows: Int(sr_terminal_rows(1)), columns: Int(sr_terminal_columns(1))),
      Pager(command: pagerCommand).show(text)
    {
      return
    }
    say(text)
    if paging, outputIsTerminal, let pagerCommand, !pagerWarned,
      Pager.isTaller(text, rows: Int(sr_terminal_rows(1)), columns: Int(sr_terminal_columns(1)))
    {
      // The pager could not be started: said once, so a broken $PAGER is not a silent mystery.
      pagerWarned = true
      tell("the pager '\(pagerCommand)' could not be started; :pager off stops trying", renderer.palette.dim)
    }
  }

  /// `DIARY NEW "title"` without a body, or `DIARY EDIT 3` without anything to change: the
  /// body is written in `$VISUAL`/`$EDITOR`, starting from the entry's current body, and the
  /// line is sent with it. Nil when the edit was cancelled, which has been said.
  private func withTextEdited(_ line: String) -> String? {
    guard let words = try? Tokenizer.words(in: line), words.count == 3,
      words[0].text.uppercased() == "DIARY", !words[2].isOption
    else { return line }
    let subcommand = words[1].text.uppercased()
    // A guest's diary command is refused whatever it says; the server says so before any typing.
    guard subcommand == "NEW" || subcommand == "EDIT", identity != nil else { return line }
    var current = ""
    if subcommand == "EDIT" {
      guard let connection = connected() else { return nil }
      do {
        let reply = try request("DIARY SHOW " + Quoting.quote(words[2].value), on: connection)
        guard reply.isOK else {
          say(renderer.render(reply))
          return nil
        }
        current = reply.rows.first?["body"] ?? ""
      } catch {
        lost(error)
        return nil
      }
    }
    switch textEditor.edit(current) {
    case .cancelled(let reason):
      tell("\(reason); nothing sent", renderer.palette.error)
      return nil
    case .saved(let body):
      if subcommand == "EDIT" && body == current {
        tell("the body is unchanged; nothing sent", renderer.palette.error)
        return nil
      }
      let head = words[0].text + " " + words[1].text + " " + Quoting.quote(words[2].value)
      return head + (subcommand == "NEW" ? " " + Quoting.quote(body) : " body=" + Quoting.quote(body, isValue: true))
    }
  }

  /// The connection, opened again first when it was lost; nil when that failed, which has
  /// been said.
  private func connected() -> Connection? {
    if let connection, connection.isReadable() {
      // The socket may have been closed while we were not looking; find out before sending.
      serveIdleSocket()
    }
    if connection == nil {
      do {
        try connect()
        // Lost again while fetching names: lost() has not spoken twice for one outage.
        guard connection != nil else {
          tell("ERR not connected: the connection closed again at once", renderer.palette.error)
          return nil
        }
        announceBack()
      } catch {
        connection?.close()
        connection = nil
        tell("ERR not connected: \(error.message)", renderer.palette.error)
        return nil
      }
    }
    return connection
  }

  /// Waits for the next reply, printing the events that arrive before it.
  private func waitForReply(on connection: Connection) throws(ClientError) -> Reply {
    while true {
      switch try connection.nextItem() {
      case .reply(let reply): return reply
      case .event(let row, let line): showEvent(row, line: line, above: false)
      }
    }
  }

  /// Keeps what the server must be told again after a reconnect, and what completion needs.
  private func remember(after line: String, reply: Reply) {
    if let cursor = PageCursor(line: line, reply: reply) { pageCursor = cursor }
    guard let words = try? Tokenizer.words(in: line), let first = words.first else { return }
    let command = first.text.uppercased()
    let positional = words.dropFirst().filter { !$0.isOption }.map(\.value)
    switch command {
    case "LOGIN", "REGISTER":
      identity = Identity(reply: reply, command: command)
      if positional.count >= 2 {
        credentials = Credentials(name: positional[0], password: Secret(positional[1]))
      }
      namesStale = true
    case "LOGOUT":
      identity = nil
      credentials = nil
      namesStale = true
    case "WHOAMI", "HELLO":
      identity = Identity(reply: reply, command: command)
    case "PASSWD":
      // The next reconnect must log in with the new password, not the one that stopped working.
      if positional.count >= 2 { credentials?.password = Secret(positional[1]) }
    case "USER":
      if positional.count >= 3, positional[0].uppercased() == "PASSWD", positional[1] == credentials?.name {
        credentials?.password = Secret(positional[2])
      }
    case "WATCH": watching = words.dropFirst().map(\.text)
    case "UNWATCH": watching = nil
    case "PRODUCT", "DIARY": namesStale = true
    default: break
    }
  }

  private func connect(limitMilliseconds: Int32? = nil) throws(ClientError) {
    let connection = try Connection.open(
      host: options.host, port: options.port, limitMilliseconds: limitMilliseconds, tls: options.tls)
    self.connection = connection
    identity = nil
    if let credentials {
      try connection.send(credentials.loginLine)
      let reply = try waitForReply(on: connection)
      identity = Identity(reply: reply, command: "LOGIN")
      if !reply.isOK {
        // A password that failed once fails again: forget it rather than retry on every reconnect.
        self.credentials = nil
        let text =
          "login as \(credentials.name) failed: \(VisibleControls.escaped(reply.lines.last ?? "", lineBreaks: false)); continuing as a guest"
        tell(text, renderer.palette.error)
      }
    }
    if let watching {
      try connection.send((["WATCH"] + watching).joined(separator: " "))
      let reply = try waitForReply(on: connection)
      if !reply.isOK { say(renderer.render(reply)) }
    }
    namesStale = true
    refreshNamesIfNeeded()
  }

  /// Says once per outage that the server went away, and starts the background retries;
  /// a command typed meanwhile still tries at once.
  private func lost(_ error: ClientError) {
    connection?.close()
    connection = nil
    editor.watched = nil
    if nextRetry == nil, !closedForIdleness {
      backoff.reset()
      nextRetry = MonotonicClock.seconds() + backoff.failed()
    }
    guard !lossAnnounced else {
      editor.prompt = prompt
      return
    }
    lossAnnounced = true
    // The server's idle notice has said it all already; a second line would say it again.
    guard !closedForIdleness else {
      editor.printAbove("", prompt: prompt)
      return
    }
    editor.printAbove(wrapped("\(error.message); reconnecting", renderer.palette.error), prompt: prompt)
  }

  /// The end of an outage: said once, and the editor watches the new socket.
  private func announceBack() {
    lossAnnounced = false
    closedForIdleness = false
    nextRetry = nil
    backoff.reset()
    editor.watched = connection?.fd
    editor.printAbove(wrapped("reconnected to \(options.host):\(options.port)", renderer.palette.dim), prompt: prompt)
  }

  private func millisecondsToRetry() -> Int32 {
    guard connection == nil, let nextRetry else { return -1 }
    // Rounded up, so a wait that ends a hair early does not spin until the attempt is due.
    return Int32(max(0, ((nextRetry - MonotonicClock.seconds()) * 1000).rounded(.up)))
  }

  /// One attempt while the prompt waits; a failure doubles the wait, up to a ceiling, and
  /// says nothing, since the outage was announced when it began.
  private func retryIfDue() {
    guard connection == nil, let due = nextRetry, MonotonicClock.seconds() >= due else { return }
    do {
      try connect(limitMilliseconds: Self.attemptLimitMilliseconds)
      // Fetching names after the login can lose the new connection again; lost() then
      // kept the retry scheduled, and the user has not been told anything is back.
      guard connection != nil else { return backOff() }
      announceBack()
    } catch {
      connection?.close()
      connection = nil
      backOff()
    }
  }

  private func backOff() {
    nextRetry = MonotonicClock.seconds() + backoff.failed()
  }

  /// Runs inside the line editor's read when the socket has data: events go above the
  /// prompt, and the end of the connection is said once.
  private func serveIdleSocket() {
    guard let connection else { return }
    do {
      try connection.readOnce()
    } catch {
      for case .event(let row, let line) in connection.takeQueued() {
        showEvent(row, line: line, above: true)
      }
      lost(error)
      return
    }
    for item in connection.takeQueued() {
      if case .event(let row, let line) = item { showEvent(row, line: line, above: true) }
    }
  }

  /// Events read in the same chunk as a reply, after it: the server sends a watcher's own
  /// `! stock` right behind its `OK order=`. The socket has nothing more to say about them, so
  /// the editor's poll would not wake, and they would wait for the next command.
  private func showQueuedEvents(of connection: Connection) {
    for case .event(let row, let line) in connection.takeQueued() {
      showEvent(row, line: line, above: true)
    }
  }

  private func showEvent(_ row: Row, line: String, above: Bool) {
    if let cause = row["cause"], cause == "listed" || cause == "delisted" { namesStale = true }
    if row.id == "closing", row["reason"] == "idle" { closedForIdleness = true }
    let text = renderer.render(event: row, line: line)
    if above { editor.printAbove(text) } else { say(text) }
  }

  private func say(_ text: String) { editor.printAbove(text) }

  /// A message of the client's own, broken at spaces to the terminal's width (the width of the
  /// window even with `:wide on`, which is for tables) and each line styled: the terminal
  /// would otherwise cut it in the middle of a word, as server ERR lines no longer are.
  private func tell(_ text: String, _ style: (String) -> String) {
    say(wrapped(text, style))
  }

  private func wrapped(_ text: String, _ style: (String) -> String) -> String {
    let width = outputIsTerminal ? Int(sr_terminal_columns(1)) : 0
    return TextWrap.lines(text, width: width, hanging: 2).map { style($0) + "\n" }.joined()
  }

  // MARK: - Completion

  private func completion(for line: String) -> Completer.Completion {
    refreshNamesIfNeeded()
    return Completer(names: names).complete(line)
  }

  /// Fetches NAMES, the categories and the diary ids when something may have changed them:
  /// a product or diary command, a listed/delisted event, or simply time passing, since
  /// other users change the catalogue without this session watching.
  private func refreshNamesIfNeeded() {
    let now = MonotonicClock.seconds()
    guard namesStale || now - namesFetched > 10, let connection else { return }
    do {
      var fresh = names
      fresh.update(names: try request("NAMES", on: connection))
      fresh.update(categories: try request("LIST", on: connection))
      if identity != nil {
        fresh.update(diary: try request("LIST diary size=100", on: connection))
      }
      names = fresh
      highlighter = LineHighlighter(names: fresh)
      renderer.names = fresh
      namesFetched = now
      namesStale = false
    } catch {
      lost(error)
    }
  }

  private func request(_ line: String, on connection: Connection) throws(ClientError) -> Reply {
    try connection.send(line)
    while true {
      switch try connection.nextItem() {
      case .reply(let reply):
        showQueuedEvents(of: connection)
        return reply
      case .event(let row, let line): showEvent(row, line: line, above: true)
      }
    }
  }

}
