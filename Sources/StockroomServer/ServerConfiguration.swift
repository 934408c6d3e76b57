import Foundation
import StockroomProtocol
import StockroomStorage

/// Everything `stockroomd` can be told on its command line.
public struct ServerConfiguration: Sendable, Equatable {
  public var host = "127.0.0.1"
  /// 0 asks the kernel for a free port; tests do that and read the port back.
  public var port: UInt16 = ProtocolVersion.defaultPort
  public var initialStock: Int? = nil
  public var catalogPath: String? = nil
  public var maxLine = ProtocolVersion.defaultMaxLine
  public var maxClients = 1024
  /// Unsent output past which a connection stops reading requests until its client catches up.
  public var outputHighWater = 256 * 1024
  /// Unsent output past which a connection that does not read (a silent watcher) is closed.
  public var outputHardLimit = 8 * 1024 * 1024
  public var logging = true
  /// Where the shop is kept: a SQLite file in a directory, or memory only (`--memory`).
  public var dataDirectory: String? = "data"
  /// A PostgreSQL URL to keep the shop in instead (`--store`, `STOCKROOM_STORE`); when set,
  /// `dataDirectory` is nil.
  public var store: String? = nil
  public var fsync = FsyncPolicy.always
  /// Start on a data directory or database other users may read, with a warning instead of a
  /// refusal.
  public var insecurePermissions = false
  /// Event-loop threads; nil picks by the machine (see `resolvedLoops`).
  public var loops: Int? = nil
  /// Seconds a connection may send nothing and take nothing before it is closed; 0 never.
  /// Watching connections are never idle. Ten minutes lets a person think; the client reconnects.
  public var idleTimeout = 600
  /// Seconds a request line may take from its first byte to its LF; 0 never. Stops a client
  /// that holds a connection by sending a byte now and then (slowloris).
  public var lineTimeout = 30
  public var registration = Registration.open

  public init() {}

  /// `--loops` when given, else `defaultLoops` for this machine.
  public var resolvedLoops: Int {
    loops
      ?? Self.defaultLoops(
        cores: ProcessInfo.processInfo.activeProcessorCount, onDisk: dataDirectory != nil || store != nil)
  }

  /// One loop on two cores or fewer; above that one per core, less the core the committer's
  /// thread needs when there is a database. On two cores shared with 50 client threads
  /// (Scripts/bench, three alternating rounds, README "Performance") one loop used 5–22% less
  /// CPU per request than two for PING, STOCK and ORDER, in memory and on disk, and served as
  /// many or more requests a second: a second loop only adds wake-ups and cross-core traffic
  /// when the clients already hold the other core. More cores were not measured.
  public static func defaultLoops(cores: Int, onDisk: Bool) -> Int {
    if cores <= 2 { return 1 }
    return onDisk ? cores - 1 : cores
  }

  public static let usage = """
    usage: stockroomd [options]

      --host ADDRESS       address to listen on (default 127.0.0.1; loopback unless you say otherwise)
      -p, --port PORT      TCP port (default 7878; 0 picks a free one and logs it)
      --initial-stock N    every fruit starts with N (default: the catalogue's initial_stock, 10)
      --catalog FILE       load this catalogue JSON instead of the shipped one
      --max-line BYTES     longest request line accepted (default 65536)
      --max-clients N      connections served at once; more get ERR LIMIT (default 1024)
      --data DIR           keep the shop in DIR/stockroom.sqlite (default ./data, created 0700 if missing;
                           a DIR or database that group or others may read or write is refused)
      --insecure-permissions
                           start on such a DIR anyway, with a warning in the log
      --memory             keep the shop in memory only: a restart starts from the catalogue
      --store URL          keep the shop in PostgreSQL (postgresql://user@host:port/db; also
                           $STOCKROOM_STORE); one node per store for now; see stockroomd migrate --help
      --registration MODE  open (default): anyone may REGISTER a customer account; closed: admins only
      --fsync MODE         always (default): every acknowledged change is on disk, even after power loss
                           batch: forced to disk every --fsync-interval ms; power loss can lose that window
                           off: the OS writes when it likes; power loss can lose ~30 s
                           (a crash of stockroomd itself loses nothing acknowledged in any mode)
      --fsync-interval MS  for --fsync batch (default 1000)
      --loops N            event-loop threads serving connections (default: 1 on up to two cores;
                           above that one per core, less one for the committer when on disk)
      --timeout SECONDS    close a connection that sends and reads nothing for this long (default 600;
                           0 never); a watching connection is never idle
      --line-timeout SECONDS
                           close a connection whose request line takes longer than this to arrive
                           whole (default 30; 0 never)
      --quiet              no log lines on stderr
      --version            print the version and protocol, as stockroomd 0.1.0 protocol=2
      -h, --help           this text

    Connect with `nc 127.0.0.1 7878` and type HELP.

    stockroomd backup DIR FILE
      writes a consistent copy of DIR/stockroom.sqlite to FILE while the server runs; to restore,
      put FILE in a directory as stockroom.sqlite and start with --data on that directory.

    stockroomd user add|passwd|del NAME, stockroomd user list   [--data DIR]
      manages accounts while no server runs on DIR; see stockroomd user --help.

    stockroomd migrate --store URL, stockroomd import [--data DIR] --store URL
      makes the shop's tables in a PostgreSQL database, and copies a SQLite shop into it; see
      stockroomd import --help; then serve it with --store URL.
    """

  /// What the command line asked for.
  public enum Parsed: Equatable, Sendable {
    case run(ServerConfiguration)
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

  /// `environment` supplies `STOCKROOM_STORE`, which `--data`, `--memory` and `--store` override.
  public static func parse(_ words: [String], environment: [String: String] = [:]) throws(UsageError) -> Parsed {
    // `--flag=value` is read as `--flag value`.
    let arguments = words.flatMap { word -> [String] in
      guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return [word] }
      return [String(word[..<equals]), String(word[word.index(after: equals)...])]
    }
    if arguments.first == "backup" {
      guard arguments.count == 3 else { throw UsageError(message: "usage: stockroomd backup DIR FILE") }
      return .backup(directory: arguments[1], file: arguments[2])
    }
    var config = ServerConfiguration()
    if let store = environment["STOCKROOM_STORE"], !store.isEmpty {
      config.store = store
      config.dataDirectory = nil
    }
    var fsyncMode = "always"
    var fsyncInterval = 1000
    var index = 0
    func value(_ flag: String) throws(UsageError) -> String {
      index += 1
      guard index < arguments.count else { throw UsageError(message: "\(flag) needs a value") }
      return arguments[index]
    }
    func integer(_ flag: String, _ range: ClosedRange<Int>) throws(UsageError) -> Int {
      let text = try value(flag)
      guard let number = Int(text), range.contains(number) else {
        throw UsageError(
          message: "\(flag) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
      }
      return number
    }
    while index < arguments.count {
      let argument = arguments[index]
      switch argument {
      case "--help", "-h": return .help
      case "--version": return .version
      case "--host": config.host = try value(argument)
      case "--port", "-p": config.port = UInt16(try integer(argument, 0...65535))
      case "--initial-stock": config.initialStock = try integer(argument, 0...1_000_000_000)
      case "--catalog": config.catalogPath = try value(argument)
      case "--max-line": config.maxLine = try integer(argument, 64...(64 * 1024 * 1024))
      case "--max-clients": config.maxClients = try integer(argument, 1...1_000_000)
      case "--quiet": config.logging = false
      case "--data":
        config.dataDirectory = try value(argument)
        config.store = nil
      case "--memory":
        config.dataDirectory = nil
        config.store = nil
      case "--store":
        config.store = try value(argument)
        config.dataDirectory = nil
      case "--insecure-permissions": config.insecurePermissions = true
      case "--fsync":
        fsyncMode = try value(argument)
        guard ["always", "batch", "off"].contains(fsyncMode) else {
          throw UsageError(message: "--fsync takes always, batch or off, not '\(fsyncMode)'")
        }
      case "--fsync-interval": fsyncInterval = try integer(argument, 1...60_000)
      case "--loops": config.loops = try integer(argument, 1...256)
      case "--timeout": config.idleTimeout = try integer(argument, 0...31_536_000)
      case "--line-timeout": config.lineTimeout = try integer(argument, 0...86_400)
      case "--registration":
        let mode = try value(argument)
        guard let registration = Registration(rawValue: mode) else {
          throw UsageError(message: "--registration takes open or closed, not '\(mode)'")
        }
        config.registration = registration
      default: throw UsageError(message: "unknown option '\(argument)'")
      }
      index += 1
    }
    switch fsyncMode {
    case "batch": config.fsync = .batch(milliseconds: fsyncInterval)
    case "off": config.fsync = .off
    default: config.fsync = .always
    }
    guard SocketAddress(host: config.host, port: config.port) != nil else {
      throw UsageError(message: "--host takes a numeric IPv4 or IPv6 address or localhost, not '\(config.host)'")
    }
    return .run(config)
  }
}
