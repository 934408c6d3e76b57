import CStockroomShims
import Foundation
import StockroomTLS

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// `stockroom`'s whole life, kept in the library so `main.swift` stays two lines.
public enum ClientMain {
  public static func run(arguments: [String]) -> Never {
    TLSLibrary.prepare()
    signal(SIGPIPE, SIG_IGN)
    useUTF8Characters()
    let environment = ProcessInfo.processInfo.environment
    let options = parsedOptions(arguments, environment: environment)
    let inputIsTerminal = isatty(0) == 1
    let outputIsTerminal = isatty(1) == 1
    if options.showsBoard, let refusal = BoardSession.refusal(outputIsTerminal: outputIsTerminal) {
      TerminalOutput.writeError(refusal + "\n")
      exit(1)
    }
    let credentials = self.credentials(for: options, inputIsTerminal: inputIsTerminal)
    let mode = options.mode ?? (outputIsTerminal ? .human : .raw)
    let colour = Palette.wanted(
      environment: environment, isTerminal: outputIsTerminal, noColorFlag: options.noColor)
    let renderer = makeRenderer(
      options, mode: mode, colour: colour, outputIsTerminal: outputIsTerminal, environment: environment)
    if options.showsBoard {
      exit(BoardSession(options: options, credentials: credentials, palette: Palette(isEnabled: colour)).run())
    }
    if !options.command.isEmpty {
      let line = ClientOptions.requestLine(options.command)
      // HELP for a person is the REPL's, from the same table the server answers from; a
      // script (raw, JSON, CSV) still gets the server's reply to parse.
      if mode == .human, case .help(let words)? = LocalCommand.parse(line) {
        let width = renderer.terminalWidth().map { $0 > 0 ? $0 : Renderer.defaultWidth }
        TerminalOutput.write(HelpText.render(words, palette: renderer.palette, width: width))
        exit(HelpText.isKnown(words) ? 0 : 1)
      }
      exit(BatchSession(options: options, credentials: credentials, renderer: renderer).runOnce(line))
    }
    if !inputIsTerminal {
      exit(BatchSession(options: options, credentials: credentials, renderer: renderer).runPiped())
    }
    let historyFile = HistoryPolicy.file(environment: environment)
    guard
      let session = InteractiveSession(
        options: options, credentials: credentials, renderer: renderer, historyFile: historyFile,
        environment: environment)
    else {
      TerminalOutput.writeError("stockroom: cannot start the line editor\n")
      exit(70)
    }
    exit(session.run())
  }

  /// The options the words and the config file give; help, version and mistakes end here.
  private static func parsedOptions(_ arguments: [String], environment: [String: String]) -> ClientOptions {
    // A broken config file must not stand in the way of --help, which may be how to fix it.
    var config = ClientConfig()
    var configError: ClientConfig.Invalid? = nil
    do {
      config = try ClientConfig.load(environment: environment)
    } catch {
      configError = error
    }
    do {
      switch try ClientOptions.parse(arguments, environment: environment, config: config) {
      case .help:
        TerminalOutput.write(ClientOptions.usage + "\n")
        exit(0)
      case .version:
        TerminalOutput.write(ClientOptions.versionLine + "\n")
        exit(0)
      case .run(let parsed):
        if let configError {
          TerminalOutput.writeError("stockroom: \(configError)\n")
          // EX_CONFIG.
          exit(78)
        }
        return parsed
      }
    } catch {
      // One line: the mistake is what matters, and the usage would scroll it away.
      TerminalOutput.writeError("stockroom: \(error); see --help\n")
      exit(64)
    }
  }

  /// The account to log in as, with its password asked for or read now; none without --user.
  private static func credentials(for options: ClientOptions, inputIsTerminal: Bool) -> Credentials? {
    guard let user = options.user else { return nil }
    do {
      let password = try PasswordSource.password(for: options, inputIsTerminal: inputIsTerminal)
      return Credentials(name: user, password: password)
    } catch {
      TerminalOutput.writeError("stockroom: \(error)\n")
      // 130, as a shell reports Ctrl-C; any other way of having no password is 2.
      exit(error == .interrupted ? 130 : 2)
    }
  }

  private static func makeRenderer(
    _ options: ClientOptions, mode: OutputMode, colour: Bool, outputIsTerminal: Bool, environment: [String: String]
  ) -> Renderer {
    var renderer = Renderer(
      mode: mode, palette: Palette(isEnabled: colour), dates: DateStyle.from(environment: environment))
    renderer.prettyJSON = outputIsTerminal
    renderer.escapesControls = outputIsTerminal
    if options.wide {
      renderer.terminalWidth = { nil }
    } else if outputIsTerminal {
      // Read at every table, so a resized window gets tables that fit it.
      renderer.terminalWidth = { Int(sr_terminal_columns(1)) }
    }
    return renderer
  }

  /// libedit decodes and measures characters with the C library, which needs a UTF-8
  /// LC_CTYPE; the protocol is UTF-8 whatever the user's locale says.
  private static func useUTF8Characters() {
    if let name = setlocale(LC_CTYPE, ""), String(cString: name).lowercased().contains("utf") {
      return
    }
    _ = setlocale(LC_CTYPE, "C.UTF-8")
  }
}
