import Foundation
import StockroomEngine
import StockroomProtocol
import StockroomServer
import StockroomStorage
import StockroomTransport

/// How `stockroomd`'s words become a configuration: its usage text, and the parsing of the
/// command line over the config file and the environment.
extension ServerConfiguration {
  public static var usage: String {
    """
    usage: stockroomd [options]

    \(ServerOptions.usage)

    Connect with `nc 127.0.0.1 7878` and type HELP.

    \(offlineCommands.map { "\($0.synopsis)\n" + $0.help.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") }.joined(separator: "\n\n"))

    \(manualPointer)
    """
  }

  /// The commands that work on a shop without serving it, each with what it does; `--help`
  /// and `man stockroomd` list them.
  public static let offlineCommands: [(synopsis: String, help: String)] = [
    (
      "stockroomd backup DIR FILE",
      """
      writes a consistent copy of DIR/stockroom.sqlite to FILE while the server runs; to restore,
      put FILE in a directory as stockroom.sqlite and start with --data on that directory.
      """
    ),
    (
      "stockroomd user add|passwd|del NAME, stockroomd user list   [--data DIR]",
      "manages accounts while no server runs on DIR (add and list on --store URL too); see stockroomd user --help."
    ),
    (
      "stockroomd migrate --store URL, stockroomd import [--data DIR] --store URL",
      """
      makes the shop's tables in a PostgreSQL database, and copies a SQLite shop into it; see
      stockroomd import --help; then serve it with --store URL.
      """
    ),
  ]

  /// Where the rest is: `man stockroomd` once installed, and the repository's docs/.
  public static let manualPointer = """
    The manual: man stockroomd (installed from contrib/man/, see docs/operating.md), and in the
    repository docs/operating.md, with every option and config key in docs/reference/stockroomd.md.
    """

  /// What the command line asked for.
  public enum Parsed: Equatable, Sendable {
    case run(ServerConfiguration)
    /// `--check-config`: check this configuration and exit without serving.
    case check(ServerConfiguration)
    case help
    case version
    case backup(directory: String, file: String)
  }

  public struct UsageError: Error, Equatable, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
  }

  /// What `--version` prints: the release and the protocol it speaks, as the greeting says them.
  public static let versionLine = "stockroomd \(ProtocolVersion.serverVersion) protocol=\(ProtocolVersion.current)"

  /// Reads the options from the defaults, then the config file (`--config FILE`, else
  /// `defaultConfigFile` when it exists), then `environment` (`STOCKROOM_STORE`, `STOCKROOM_IO`), then the
  /// command line: each later one wins.
  public static func parse(
    _ words: [String], environment: [String: String] = [:], defaultConfigFile: String? = defaultConfigFile
  ) throws(UsageError) -> Parsed {
    // `--flag=value` is read as `--flag value`.
    let arguments = words.flatMap { word -> [String] in
      guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return [word] }
      return [String(word[..<equals]), String(word[word.index(after: equals)...])]
    }
    if arguments.first == "backup" {
      guard arguments.count == 3 else { throw UsageError(message: "usage: stockroomd backup DIR FILE") }
      return .backup(directory: arguments[1], file: arguments[2])
    }
    // First only which options were given, so --help works whatever the file says, and the
    // file is read before the command line is applied over it.
    var given: [(spelling: String, option: ServerOption, value: String?)] = []
    var configFile: String?
    var checking = false
    var index = 0
    while index < arguments.count {
      let word = arguments[index]
      guard let option = ServerOptions.commandLine(word) else {
        throw UsageError(message: "unknown option '\(word)'")
      }
      var value: String?
      if option.takesValue {
        index += 1
        guard index < arguments.count else { throw UsageError(message: "\(word) needs a value") }
        value = arguments[index]
      }
      switch option.action {
      case .command(.help): return .help
      case .command(.version): return .version
      case .command(.checkConfig): checking = true
      case .command(.config): configFile = value
      default: given.append((word, option, value))
      }
      index += 1
    }
    var settings = OptionSettings()
    let file = configFile ?? defaultConfigFile.flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil }
    if let file {
      try ConfigFile(path: file).apply(to: &settings)
      settings.configuration.configFile = file
    }
    if let store = environment["STOCKROOM_STORE"], !store.isEmpty {
      settings.configuration.store = store
      settings.configuration.dataDirectory = nil
    }
    if let io = environment["STOCKROOM_IO"], !io.isEmpty {
      do throws(OptionProblem) {
        settings.configuration.io = try OptionSettings.oneOf(io)
      } catch {
        throw UsageError(message: "STOCKROOM_IO \(error.message)")
      }
    }
    for (spelling, option, value) in given {
      do throws(OptionProblem) {
        switch option.action {
        case .value(_, let set): try set(&settings, value ?? "")
        case .flag(let set): set(&settings, true)
        case .command: break
        }
      } catch {
        throw UsageError(message: "\(spelling) \(error.message)")
      }
    }
    let configuration = try settings.finish()
    return checking ? .check(configuration) : .run(configuration)
  }
}
