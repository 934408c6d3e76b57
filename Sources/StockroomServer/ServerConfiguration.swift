import Foundation
import StockroomDomain
import StockroomEngine
import StockroomLogging
import StockroomProtocol
import StockroomSecurity
import StockroomStorage
import StockroomTransport

/// Everything `stockroomd` can be told on its command line.
public struct ServerConfiguration: Sendable, Equatable {
  public var host = "127.0.0.1"
  /// 0 asks the kernel for a free port; tests do that and read the port back.
  public var port: UInt16 = ProtocolVersion.defaultPort
  public var initialStock: Int? = nil
  public var catalogPath: String? = nil
  public var maxLine = ProtocolVersion.defaultMaxLine
  public var maxClients = 1024
  /// Connections one address (an IPv6 /64) may hold at once; 0 for no limit.
  public var maxClientsPerAddress = 256
  /// How long after a rejection is logged the next ones are only counted (see `RejectionLog`).
  public var rejectionLogInterval: Duration = .seconds(10)
  /// Connects from one address logged one by one per interval; the rest are counted, and said
  /// in one line per address when the interval ends (see `SourceLogRate`).
  public var connectsLoggedInFull = 10
  public var connectLogInterval: Duration = .seconds(10)
  /// Unsent output past which a connection stops reading requests until its client catches up.
  public var outputHighWater = 256 * 1024
  /// Unsent output past which a connection that does not read (a silent watcher) is closed:
  /// about 30,000 events, a busy shop's minutes, and more than a watcher that reads ever holds.
  public var outputHardLimit = 2 * 1024 * 1024
  /// Unsent output of every watcher together; past it the one furthest behind, of the source
  /// whose watchers hold the most, is cut (`UnsentOutputBudget`). With everything else a
  /// server holds, it keeps one under 512 MB however many stalled watchers there are.
  public var watcherOutputBudget = 128 * 1024 * 1024
  /// Order lines one address may place a second, ten seconds' worth at once (`--order-rate`); 0
  /// for no limit. 1,000 a second is far beyond a room of people ordering by hand behind one
  /// address, and bounds what one host can write to the database (docs/security.md, "Fair
  /// shares"; OrderRateTests).
  public var orderRate = 1_000
  /// What each Argon2id password hash costs (`--password-memory`, `--password-passes`); below
  /// the default only where memory is short or, as in tests, logins are many and the hashes
  /// worthless (see `PasswordCost`).
  public var passwordCost = PasswordCost.interactive
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
  /// How those loops wait on their sockets.
  public var io = IOBackend.epoll
  /// How long a stop waits for replies owed to be written and taken by their clients' kernels
  /// after the last commit (`Server.stop`); a client that does not read cannot hold it longer.
  public var shutdownGrace: Duration = .seconds(5)
  /// Seconds a connection may send nothing and take nothing before it is closed; 0 never.
  /// Watching connections are never idle. Ten minutes lets a person think; the client reconnects.
  public var idleTimeout = 600
  /// Seconds a request line may take from its first byte to its LF; 0 never. Stops a client
  /// that holds a connection by sending a byte now and then (slowloris).
  public var lineTimeout = 30
  /// Seconds a watcher may leave output waiting without taking a byte of it before it is closed;
  /// 0 never. A watcher is never idle (it waits for the shop to move), so this is what frees the
  /// slot of one that stopped reading while events trickle in below the hard limit. Five minutes
  /// outlasts a laptop lid closed over a coffee; the REPL watches again when it reconnects.
  public var watchTimeout = 300
  public var registration = Registration.open
  /// What a node of a shared store answers reads from: a cache caught up with the store first,
  /// or the cache as it is.
  public var reads = ReadMode.linearizable
  /// A TLS port beside the plaintext one; nil serves plaintext only.
  public var tls: TLSSettings? = nil
  /// Lets LOGIN, REGISTER, PASSWD and USER ADD/PASSWD run over plaintext from other machines.
  public var allowPlaintextAuth = false
  /// Where the live board (`/`, `/events`) and Prometheus' `/metrics` are served over HTTP
  /// (`--http`); nil serves none.
  public var http: ListenAddress? = nil
  /// Whether the board shows who made each change (`--http-names`); by default it shows what
  /// WATCH shows a guest: no names.
  public var httpNames = false
  public var logFormat = LogFormat.text
  /// The file the log is appended to instead of stderr; SIGHUP reopens it.
  public var logFile: String? = nil
  /// The config file the options were read from, if any.
  public var configFile: String? = nil

  public init() {}

  /// Read when it exists and no `--config` names another.
  public static let defaultConfigFile = "/etc/stockroom/stockroomd.conf"

  /// `--loops` when given, else `defaultLoops` for this machine.
  public var resolvedLoops: Int {
    loops
      ?? Self.defaultLoops(
        cores: ProcessInfo.processInfo.activeProcessorCount, onDisk: dataDirectory != nil || store != nil)
  }

  /// One loop on two cores or fewer; above that one per core, less the core the committer's
  /// thread needs when there is a database. On two cores shared with 50 client threads
  /// (Scripts/bench, three alternating rounds, docs/performance.md) one loop used 5–22% less
  /// CPU per request than two for PING, STOCK and ORDER, in memory and on disk, and served as
  /// many or more requests a second: a second loop only adds wake-ups and cross-core traffic
  /// when the clients already hold the other core. More cores were not measured.
  public static func defaultLoops(cores: Int, onDisk: Bool) -> Int {
    if cores <= 2 { return 1 }
    return onDisk ? cores - 1 : cores
  }
}
