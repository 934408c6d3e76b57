import Foundation
import StockroomLogging
import StockroomServer
import StockroomStorage
import StockroomSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// `stockroomd migrate` and `stockroomd import`: an operator's two steps towards a PostgreSQL
/// store. The store comes from `--store URL` or `STOCKROOM_STORE`, never shown with its password.
public struct StoreCommand: Sendable, Equatable {
  public enum Action: Sendable, Equatable {
    /// Brings the store's schema up to this server's.
    case migrate
    /// Copies the SQLite shop in the directory into the (empty) store.
    case importShop(directory: String)
  }

  public var action: Action
  public var store: String

  public static let usage = """
    usage: stockroomd migrate [--store URL]
           stockroomd import [--data DIR] [--store URL]

      migrate makes or updates the shop's tables in the PostgreSQL database at URL
      (postgresql://user@host:port/database; default $STOCKROOM_STORE). Several servers may
      run it at once; one does the work. import copies the SQLite shop in DIR (default ./data),
      every table, into an empty store in one transaction, checks every item's stock against its
      ledger there, and commits only then; no server may be running on DIR meanwhile.
      Put a password in ~/.pgpass or $PGPASSWORD rather than in the URL, where ps shows it.
    """

  /// Reads the words after `migrate` or `import` (`verb`); nil for `--help`.
  public static func parse(verb: String, _ words: [String], environment: [String: String]) throws(ServerConfiguration
    .UsageError) -> StoreCommand?
  {
    let arguments = words.flatMap { word -> [String] in
      guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return [word] }
      return [String(word[..<equals]), String(word[word.index(after: equals)...])]
    }
    var store = environment["STOCKROOM_STORE"]
    var directory: String? = nil
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      switch argument {
      case "--help", "-h": return nil
      case "--store", "--data":
        index += 1
        guard index < arguments.count else { throw usageError(verb, "\(argument) needs a value") }
        if argument == "--store" { store = arguments[index] } else { directory = arguments[index] }
      default: throw usageError(verb, "unknown argument '\(argument)'")
      }
      index += 1
    }
    guard let store, !store.isEmpty else { throw usageError(verb, "say which database with --store URL") }
    switch verb {
    case "migrate":
      guard directory == nil else { throw usageError(verb, "--data is for import") }
      return StoreCommand(action: .migrate, store: store)
    default:
      return StoreCommand(action: .importShop(directory: directory ?? "data"), store: store)
    }
  }

  private static func usageError(_ verb: String, _ message: String) -> ServerConfiguration.UsageError {
    ServerConfiguration.UsageError(message: "\(message); see stockroomd \(verb) --help")
  }

  /// Does the work; returns the line to print.
  public func run() throws -> String {
    let url = try PostgresURL(store)
    switch action {
    case .migrate:
      let connection = try PostgresConnection(url, applicationName: "stockroomd migrate")
      let (from, to) = try PostgresSchema.migrate(connection)
      return from == to
        ? "the store at \(url) is at schema version \(to); nothing to do"
        : "migrated the store at \(url) from schema version \(from) to \(to)"
    case .importShop(let directory):
      let report = try PostgresImport.run(from: directory, into: url)
      return "imported \(ShopDatabase.path(in: directory)) into \(url): \(report)"
    }
  }

  /// Runs `stockroomd migrate|import ...` to its end: exit 0 with what was done on stdout;
  /// 64 for a usage mistake, 69 when the database cannot be reached, 1 otherwise, with one line
  /// on stderr.
  public static func main(verb: String, _ words: [String]) -> Never {
    let command: StoreCommand
    do {
      guard let parsed = try parse(verb: verb, words, environment: ProcessInfo.processInfo.environment) else {
        print(usage)
        exit(0)
      }
      command = parsed
    } catch {
      fail(verb, "\(error)", status: 64)
    }
    Syscall.ignoreSIGPIPE()
    do {
      print(try command.run())
      exit(0)
    } catch let error as PostgresError {
      fail(verb, error.description, status: error.isUnavailable ? 69 : 1)
    } catch {
      fail(verb, "\(error)", status: 1)
    }
  }

  private static func fail(_ verb: String, _ message: String, status: Int32) -> Never {
    FileHandleWriter.standardError("stockroomd \(verb): \(message)\n")
    exit(status)
  }
}
