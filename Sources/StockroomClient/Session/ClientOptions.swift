import StockroomProtocol

/// Everything `stockroom` can be told on its command line and in its environment.
public struct ClientOptions: Sendable, Equatable {
  public var host = "127.0.0.1"
  public var port: UInt16 = ProtocolVersion.defaultPort
  /// The account to log in as after connecting (and again after every reconnect).
  public var user: String? = nil
  /// `--password-file`: the password is the first line of this file.
  public var passwordFile: String? = nil
  /// `$STOCKROOM_PASSWORD`, used when there is no password file.
  public var password: Secret? = nil
  /// Nil until `--raw`, `--json` or `--human` says; the default then depends on stdout.
  public var mode: OutputMode? = nil
  public var noColor = false
  /// `--wide`: tables keep every column and wrap nothing, whatever the terminal's width.
  public var wide = false
  /// In piped mode, exit 1 when any reply was an error.
  public var exitOnError = false
  /// The command to run once; empty for the REPL or piped mode.
  public var command: [String] = []
  /// `-r`: how many times to run the command; -1 runs it until interrupted, as in redis-cli.
  public var repeatCount = 1
  /// `-i`: seconds to wait between repeats.
  public var interval: Double = 0
  /// Long replies in the REPL go through this pager when stdout is a terminal.
  public var pager = PagerSetting.automatic
  /// `stockroom top`: the live board instead of a command or the REPL.
  public var showsBoard = false
  /// `--tls` or a `stockrooms://` URL; nil for plain TCP.
  public var tls: ClientTLS? = nil
  /// The REPL's prompt; `prompt =` in the config file.
  public var prompt = PromptFormat.standard
  /// `timing = on` in the config file: the REPL starts with `:timing on`.
  public var timing = false
  /// `json = on` in the config file: the REPL (only) starts with `:json on`.
  public var replJSON = false
  /// `highlight = off` in the config file turns off the REPL's colouring as you type; colour
  /// off (`NO_COLOR`, `--no-color`) turns it off too.
  public var highlight = true
  /// `startup =` lines in the config file, run in order when the REPL starts.
  public var startup: [String] = []

  public init() {}

  public enum Parsed: Sendable, Equatable {
    case run(ClientOptions)
    case help
    case version
  }

  public struct UsageError: Error, Equatable, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
  }

  /// `--help`: the options from `ClientOptionTable`, then how the modes, the password, the
  /// REPL and the config file work, and where the manual is.
  public static let usage = """
    usage: stockroom [options] [command ...]
           stockroom [options] top      the live board: stock, recent orders, who is connected

    \(ClientOptionTable.usage)

    With a command, run it once and exit 0 on OK, 1 on ERR, 2 when the server cannot be reached;
    one argument with spaces is a request line:  stockroom "STOCK kiwi"
    With stdin not a terminal, run each line of it, pipelined:  printf 'STOCK\\n' | stockroom -e
    Otherwise start the REPL; history is kept in ~/.stockroom_history ($STOCKROOM_HISTFILE),
    without the lines that carry a password (LOGIN, REGISTER, PASSWD, USER ADD, USER PASSWD).

    With -u, the password comes from --password-file, else $STOCKROOM_PASSWORD, else a prompt
    when stdin is a terminal; without any of them stockroom exits 2. A failed login exits 1 with
    a command or piped input; the REPL goes on as a guest. In the REPL, LOGIN NAME without a
    password asks for it.

    In the REPL, a reply taller than the screen goes through $PAGER (:pager off stops it),
    :timing on times each command, and DIARY NEW "title" without a body or DIARY EDIT N
    without text opens $VISUAL, else $EDITOR, else vi.

    Defaults for \(ClientConfigKey.all.map(\.name).dropLast().joined(separator: ", "))
    and \(ClientConfigKey.all.last?.name ?? "") come from ~/.config/stockroom/config
    ($XDG_CONFIG_HOME/stockroom/config): key = value lines, # comments. The environment overrides
    the file, and the command line overrides both.

    \(manualPointer)
    """

  /// Where the rest is: `man stockroom` once installed, and the repository's docs/.
  public static let manualPointer = """
    The manual: man stockroom (installed from contrib/man/, see docs/operating.md), and in the
    repository docs/client.md, with every option and key in docs/reference/stockroom.md;
    the commands are in Protocol.md, or HELP in the REPL.
    """

  /// What `--version` prints: the release and the protocol version this client speaks.
  public static let versionLine = "stockroom \(ProtocolVersion.serverVersion) protocol=\(ProtocolVersion.current)"

  public static func parse(
    _ arguments: [String], environment: [String: String] = [:], config: ClientConfig = ClientConfig()
  ) throws(UsageError) -> Parsed {
    var options = try defaults(environment: environment, config: config)
    var index = 0
    /// The port was chosen (config, environment, flag or URL): --tls does not move it.
    var portChosen = config.port != nil || !(environment["STOCKROOM_PORT"] ?? "").isEmpty
    var wantsTLS = config.tls == true
    var tlsFlag = false
    /// What --cacert, --insecure, --cert and --key said; used once --tls or a URL asks for TLS.
    var tls = ClientTLS()
    func value(_ flag: String) throws(UsageError) -> String {
      index += 1
      guard index < arguments.count else { throw UsageError(message: "\(flag) needs a value") }
      return arguments[index]
    }
    func finish() throws(UsageError) -> Parsed {
      try checked(
        options, tls: wantsTLS ? tls : nil, tlsWords: tls != ClientTLS(), portChosen: portChosen,
        configCA: config.cacert)
    }
    while index < arguments.count {
      let argument = arguments[index]
      switch argument {
      case "--help": return .help
      case "--version": return .version
      case "-h", "--host": options.host = try value(argument)
      case "-p", "--port":
        options.port = try port(try value(argument), source: argument)
        portChosen = true
      case "--tls":
        wantsTLS = true
        tlsFlag = true
      case "--cacert": tls.caFile = try value(argument)
      case "--insecure": tls.verify = false
      case "--cert": tls.certificate = try value(argument)
      case "--key": tls.key = try value(argument)
      case "-u", "--user": options.user = try value(argument)
      case "--password-file": options.passwordFile = try value(argument)
      case "-e": options.exitOnError = true
      case "-r": options.repeatCount = try repeatCount(try value(argument))
      case "-i": options.interval = try interval(try value(argument))
      case "--raw": options.mode = .raw
      case "--json": options.mode = .json
      case "--human": options.mode = .human
      case "--csv": options.mode = .csv
      case "--no-pager": options.pager = .off
      case "--no-color", "--no-colour": options.noColor = true
      case "--wide": options.wide = true
      case "--":
        options.command = Array(arguments[(index + 1)...])
        return try finish()
      default:
        if argument.hasPrefix("-") && argument.count > 1 && Int(argument) == nil {
          throw UsageError(message: "unknown option '\(argument)'")
        }
        if options.command.isEmpty, ConnectionURL.looksLikeURL(argument) {
          let url = try options.apply(url: argument)
          // The URL's scheme says it, over the config file's tls = on; --tls still wins.
          wantsTLS = url.scheme == .stockrooms || tlsFlag
          portChosen = portChosen || url.port != nil
          index += 1
          continue
        }
        options.command = Array(arguments[index...])
        return try finish()
      }
      index += 1
    }
    return try finish()
  }

  /// The config file's settings, then the environment's over them.
  private static func defaults(environment: [String: String], config: ClientConfig) throws(UsageError) -> ClientOptions
  {
    var options = ClientOptions()
    if let host = config.host { options.host = host }
    if let port = config.port { options.port = port }
    if let user = config.user { options.user = user }
    if config.color == false { options.noColor = true }
    if let pager = config.pager { options.pager = pager }
    if let prompt = config.prompt { options.prompt = prompt }
    options.timing = config.timing ?? false
    options.replJSON = config.json ?? false
    options.wide = config.wide ?? false
    options.highlight = config.highlight ?? true
    options.startup = config.startup
    if let host = environment["STOCKROOM_HOST"], !host.isEmpty { options.host = host }
    if let text = environment["STOCKROOM_PORT"], !text.isEmpty {
      options.port = try port(text, source: "STOCKROOM_PORT")
    }
    if let user = environment["STOCKROOM_USER"], !user.isEmpty { options.user = user }
    if let password = environment["STOCKROOM_PASSWORD"], !password.isEmpty { options.password = Secret(password) }
    return options
  }

  /// `-r`: a count of 1 or more, or -1 for ever.
  private static func repeatCount(_ text: String) throws(UsageError) -> Int {
    guard let count = Int(text), count >= 1 || count == -1 else {
      throw UsageError(message: "-r takes a count of 1 or more, or -1 for ever, not '\(text)'")
    }
    return count
  }

  /// `-i`: seconds between repeats, 0 or more.
  private static func interval(_ text: String) throws(UsageError) -> Double {
    guard let seconds = Double(text), seconds >= 0, seconds.isFinite else {
      throw UsageError(message: "-i takes seconds, 0 or more (0.5 is half a second), not '\(text)'")
    }
    return seconds
  }

  /// A password file names no account by itself; $STOCKROOM_PASSWORD alone is left unused,
  /// since an environment may well set it for other runs.
  private static func checked(
    _ options: ClientOptions, tls: ClientTLS?, tlsWords: Bool, portChosen: Bool, configCA: String?
  ) throws(UsageError) -> Parsed {
    var options = options
    if tlsWords && tls == nil {
      throw UsageError(message: "--cacert, --insecure, --cert and --key go with --tls or a stockrooms:// URL")
    }
    if let tls {
      if tls.key != nil && tls.certificate == nil { throw UsageError(message: "--key needs --cert FILE") }
      options.tls = tls
      // The file's CA is a default for TLS connections, never a reason to make one.
      if tls.caFile == nil { options.tls?.caFile = configCA }
      if !portChosen { options.port = ProtocolVersion.defaultTLSPort }
    }
    // Lower-case only: the server's commands are upper-case words, and no command is TOP.
    if options.command == ["top"] {
      options.command = []
      options.showsBoard = true
    }
    if options.repeatCount != 1 && options.command.isEmpty {
      throw UsageError(message: "-r repeats a command given on the command line; none was given")
    }
    if options.interval > 0 && options.repeatCount == 1 {
      throw UsageError(message: "-i sets the wait between the runs of -r N; give -r too")
    }
    if options.passwordFile != nil && options.user == nil {
      throw UsageError(message: "--password-file needs -u NAME (or $STOCKROOM_USER)")
    }
    return .run(options)
  }

  private mutating func apply(url text: String) throws(UsageError) -> ConnectionURL {
    do {
      let url = try ConnectionURL.parse(text)
      if let host = url.host { self.host = host }
      if let port = url.port { self.port = port }
      if let user = url.user { self.user = user }
      return url
    } catch {
      throw UsageError(message: error.message)
    }
  }

  private static func port(_ text: String, source: String) throws(UsageError) -> UInt16 {
    guard let number = UInt16(text), number > 0 else {
      throw UsageError(message: "\(source) takes a port from 1 to 65535, not '\(text)'")
    }
    return number
  }

  /// The command words as one request line: words with spaces are quoted again, and a
  /// `key=value` word keeps its key bare so the server still reads it as an option.
  ///
  /// One argument with spaces in it (`stockroom "STOCK kiwi"`, as redis-cli users write) is
  /// already a request line: no command name has a space, so quoting it as one word could only
  /// give `unknown command`. It is sent as written when the protocol's Tokenizer reads it;
  /// one the Tokenizer refuses (a newline, an open quote) is quoted as before, so an argument
  /// can never smuggle a second request onto the connection.
  public static func requestLine(_ words: [String]) -> String {
    // One word holding spaces is a whole line, as typed at the prompt; one the protocol cannot
    // split for an unbalanced quote goes as it is too, for the server to say what is wrong
    // with it rather than take it for one long command name. One holding a control character
    // never does: a newline in it would send a second request.
    if words.count == 1, let line = words.first, line.contains(where: { $0 == " " || $0 == "\t" }),
      (try? Tokenizer.words(in: line)).map({ !$0.isEmpty })
        ?? !line.unicodeScalars.contains(where: Quoting.mustEscape)
    {
      return line.trimmingSpaces()
    }
    return words.map { word in
      if let equals = word.firstIndex(of: "="), word.startIndex != equals {
        let key = String(word[..<equals])
        if key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }),
          key.first.map({ !$0.isNumber }) == true
        {
          return key + "=" + Quoting.quote(String(word[word.index(after: equals)...]), isValue: true)
        }
      }
      return Quoting.quote(word)
    }.joined(separator: " ")
  }
}
