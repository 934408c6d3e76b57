import Dispatch
import Foundation
import StockroomDomain
import StockroomEngine
import StockroomLogging
import StockroomProtocol
import StockroomSecurity
import StockroomServer
import StockroomStorage
import StockroomSystem
import StockroomTLS
import StockroomTransport
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// `stockroomd`'s whole life, kept in the library: Dispatch handlers written in `main.swift`
/// would inherit main-actor isolation and trap when Dispatch runs them on another queue.
public enum ServerMain {
  public static func run(arguments: [String]) -> Never {
    // Before libpq or anything else can initialise OpenSSL: see TLSLibrary.
    TLSLibrary.prepare()
    if arguments.first == "user" { AccountCommand.main(Array(arguments.dropFirst())) }
    if let verb = arguments.first, verb == "migrate" || verb == "import" {
      StoreCommand.main(verb: verb, Array(arguments.dropFirst()))
    }
    let configuration = parsedConfiguration(from: arguments)
    // Before any thread starts (they inherit the mask), and so before the log, which may block
    // on opening a FIFO.
    Syscall.holdSignals([SIGINT, SIGTERM, SIGHUP])
    let logger = openLog(configuration)
    // Before anything can be logged about the start, so a logrotate run at that moment gets its
    // reopen (a SIGHUP before this waits, held).
    let signalQueue = DispatchQueue(label: "stockroom.signals")
    let hangUp = DispatchSource.makeSignalSource(signal: SIGHUP, queue: signalQueue)
    hangUp.setEventHandler { reload(configuration, logger: logger, server: nil) }
    hangUp.resume()
    let (server, catalog) = openShop(configuration, logger: logger)
    refuseUnprotected(configuration, server: server, logger: logger)
    do {
      let port = try server.start()
      let tlsPort = server.tlsPort.map { " tls_port=\($0)" } ?? ""
      logger.info(
        "start stockroomd \(ProtocolVersion.serverVersion) protocol=\(ProtocolVersion.current) pid=\(getpid()) port=\(port)\(tlsPort) io=\(configuration.io) loops=\(configuration.resolvedLoops) fruits_start=\(catalog.initialStock) config=\(configuration.configFile ?? "none")"
      )
    } catch let error as TLSError {
      FileHandleWriter.standardError("stockroomd: refusing to start: TLS: \(error)\n")
      exit(66)
    } catch {
      logger.error("cannot listen on \(configuration.host):\(configuration.port): \(error)")
      exit(69)
    }
    // From here SIGHUP reads the TLS files again too: before the start there were none loaded
    // to replace. (A source's handler may be replaced while it is active.)
    hangUp.setEventHandler { reload(configuration, logger: logger, server: server) }
    if let http = configuration.http {
      do {
        try server.startHTTP()
      } catch {
        logger.error("cannot serve the board and metrics on \(http): \(error)")
        exit(69)
      }
    }
    announcePickedPorts(configuration, server: server)
    let sources = stopSources(server: server, logger: logger, queue: signalQueue)
    // Not dispatchMain(): it unblocks every signal on this thread to wait in sigsuspend, so a
    // SIGTERM held since before the sources existed could be taken by this thread, and lost,
    // before Dispatch's signal source read it (ShutdownTests.earlyStopSignalIsKept failed 2 runs
    // in 8 under load). Nothing uses the main queue; this thread only waits, the signals held.
    withExtendedLifetime(sources + [hangUp]) { waitForever() }
  }

  /// The configuration the words ask to run; every other answer (help, version, a check, a
  /// backup, a mistake) ends the process here.
  private static func parsedConfiguration(from arguments: [String]) -> ServerConfiguration {
    do {
      switch try ServerConfiguration.parse(arguments, environment: ProcessInfo.processInfo.environment) {
      case .help:
        print(ServerConfiguration.usage)
        exit(0)
      case .version:
        print(ServerConfiguration.versionLine)
        exit(0)
      case .run(let parsed): return parsed
      case .check(let parsed): check(parsed)
      case .backup(let directory, let file):
        do {
          try ShopDatabase.backup(directory: directory, to: file)
          print("backed up \(directory)/\(ShopDatabase.fileName) to \(file)")
          exit(0)
        } catch {
          FileHandleWriter.standardError("stockroomd: \(error)\n")
          exit(74)
        }
      }
    } catch {
      // The mistake is what matters (a line each for a config file's), and forty lines of usage
      // would scroll it away.
      let lines = error.message.split(separator: "\n").map { "stockroomd: \($0)" }
      FileHandleWriter.standardError(lines.joined(separator: "\n") + "; see --help\n")
      exit(64)
    }
  }

  /// The catalogue and the shop it opens; a catalogue or shop that cannot be had ends the process.
  private static func openShop(_ configuration: ServerConfiguration, logger: Logger) -> (Server, Catalog) {
    let catalog: Catalog
    let catalogText: String
    do {
      (catalog, catalogText) = try CatalogSource.loadWithText(
        path: configuration.catalogPath, initialStock: configuration.initialStock)
    } catch {
      FileHandleWriter.standardError("stockroomd: \(error)\n")
      exit(66)
    }
    // A file-size limit met while opening the shop must give a refusal, not a SIGXFSZ.
    Syscall.ignoreSIGPIPE()
    if let directory = configuration.dataDirectory {
      checkPermissions(directory, insecure: configuration.insecurePermissions, logger: logger)
    }
    let server: Server
    do {
      server = try Server.open(
        configuration: configuration, catalog: catalog, catalogText: catalogText, logger: logger)
    } catch {
      let file = configuration.dataDirectory.map(ShopDatabase.path(in:)) ?? "the shop"
      FileHandleWriter.standardError(
        "stockroomd: refusing to start: \(StartupDiagnosis.message(for: error, file: file))\n")
      exit(65)
    }
    return (server, catalog)
  }

  /// SIGINT and SIGTERM: the first stops the server and leaves, later ones are logged as ignored.
  private static func stopSources(
    server: Server, logger: Logger, queue signalQueue: DispatchQueue
  ) -> [any DispatchSourceSignal] {
    var sources: [any DispatchSourceSignal] = []
    for number in [SIGINT, SIGTERM] {
      let source = DispatchSource.makeSignalSource(signal: number, queue: signalQueue)
      source.setEventHandler {
        let name = number == SIGINT ? "SIGINT" : "SIGTERM"
        guard !stopping.exchange(true, ordering: .relaxed) else {
          logger.info("stop signal=\(name) ignored: already stopping")
          return
        }
        logger.info("stop signal=\(name) clients=\(server.connectedClients)")
        // Off the signal queue, so a signal during the stop is heard and answered at once.
        DispatchQueue.global().async {
          server.stop()
          // Give connections a moment to say goodbye, then leave.
          signalQueue.asyncAfter(deadline: .now() + .milliseconds(100)) { exit(0) }
        }
      }
      source.resume()
      sources.append(source)
    }
    return sources
  }

  /// Set by the first stop signal, on the signal queue, so that later ones (a second Ctrl-C, a
  /// supervisor asking again) are logged as ignored and schedule no second exit. (`stop()`
  /// itself stops the server once however often it is called.)
  private static let stopping = Atomic<Bool>(false)

  /// Sleeps with the signals still held, for good: the process ends by `exit`.
  private static func waitForever() -> Never {
    while true { pause() }
  }

  /// SIGHUP: what can change without dropping a connection: the log file, so logrotate can move
  /// it away, and the TLS certificate and key, so a renewed certificate is served without a
  /// restart. Connections and the listening sockets are not touched.
  private static func reload(_ configuration: ServerConfiguration, logger: Logger, server: Server?) {
    reopenLog(configuration, logger: logger)
    if let server, let tls = configuration.tls { reloadTLS(tls, server: server, logger: logger) }
  }

  private static func reopenLog(_ configuration: ServerConfiguration, logger: Logger) {
    guard let file = configuration.logFile, configuration.logging else {
      logger.info("reload signal=SIGHUP log=stderr (nothing to reopen)")
      return
    }
    do {
      try LogFile.reopen(file, onto: logger.fd)
      logger.info("reload signal=SIGHUP log_file=\(file) reopened=yes")
    } catch {
      // The old file stays under the descriptor, so lines still go somewhere.
      logger.error("reload signal=SIGHUP log_file=\(file) reopened=no: \(error); still writing to the old file")
    }
  }

  /// New connections get the files' certificate from now on; open ones keep the one they shook
  /// hands with. A renewal half-written (a key that is not the certificate's) changes nothing,
  /// so the TLS port keeps serving. `TLSError` names files and OpenSSL's reasons, never key bytes.
  private static func reloadTLS(_ tls: TLSSettings, server: Server, logger: Logger) {
    do {
      try server.reloadTLS()
      logger.info("reload signal=SIGHUP tls_cert=\(tls.certificate) tls_key=\(tls.key) reloaded=yes")
    } catch {
      logger.error(
        "reload signal=SIGHUP tls_cert=\(tls.certificate) tls_key=\(tls.key) reloaded=no: \(error); "
          + "new connections still get the certificate loaded before")
    }
  }

  /// `--quiet` turns the log off, and with it the only line that said which port `--port 0`
  /// got; a port the system picked is therefore still said, on stdout, or nothing would tell
  /// where to connect: `stockroomd: listening on 127.0.0.1:41234`.
  private static func announcePickedPorts(_ configuration: ServerConfiguration, server: Server) {
    guard !configuration.logging else { return }
    var picked: [String] = []
    if configuration.port == 0, let port = server.port { picked.append("\(configuration.host):\(port)") }
    if configuration.tls?.port == 0, let port = server.tlsPort { picked.append("tls \(configuration.host):\(port)") }
    if let http = configuration.http, http.port == 0, let port = server.httpPort {
      picked.append("http \(http.host):\(port)")
    }
    guard !picked.isEmpty else { return }
    print("stockroomd: listening on \(picked.joined(separator: ", "))")
    // A pipe would keep the line in stdio's buffer for as long as the server runs.
    fflush(nil)
  }

  /// The logger the options ask for: stderr, or `--log-file` opened for appending.
  private static func openLog(_ configuration: ServerConfiguration) -> Logger {
    guard let file = configuration.logFile, configuration.logging else {
      return Logger(isEnabled: configuration.logging, format: configuration.logFormat)
    }
    do {
      return Logger(fd: try LogFile.open(file), format: configuration.logFormat)
    } catch {
      FileHandleWriter.standardError("stockroomd: cannot open log file \(file): \(error)\n")
      exit(73)
    }
  }

  /// `--check-config`: the summary on stdout and exit 0, or every problem on stderr and exit 78
  /// (EX_CONFIG); nothing is served.
  private static func check(_ configuration: ServerConfiguration) -> Never {
    let check = ConfigCheck(configuration)
    for warning in check.warnings { FileHandleWriter.standardError("stockroomd: warning: \(warning)\n") }
    guard check.problems.isEmpty else {
      for problem in check.problems { FileHandleWriter.standardError("stockroomd: \(problem)\n") }
      FileHandleWriter.standardError("stockroomd: configuration has \(check.problems.count) problem(s)\n")
      exit(78)
    }
    print("stockroomd: \(check.summary)")
    exit(0)
  }

  /// Protected mode, as Redis has it: a server other machines can reach must have someone who
  /// can manage it, or the first stranger to REGISTER owns a shop no one administers.
  private static func refuseUnprotected(_ configuration: ServerConfiguration, server: Server, logger: Logger) {
    let loopback = SocketAddress(host: configuration.host, port: configuration.port)?.isLoopback ?? false
    let (accounts, admins) = server.accountSummary
    logger.info(
      "security bind=\(configuration.host) reachable=\(loopback ? "this-machine" : "network") registration=\(configuration.registration.rawValue) accounts=\(accounts) admins=\(admins) passwords=argon2id password_cost=\(configuration.passwordCost.description) login_attempts_per_connection=\(CommandHandler.loginAttemptsPerConnection) tls=\(configuration.tls == nil ? "off" : "on") plaintext_passwords=\(configuration.allowPlaintextAuth ? "allowed" : "this-machine-only")"
    )
    if configuration.passwordCost.isBelowInteractive {
      logger.warning(
        "password hashes cost \(configuration.passwordCost.description) (--password-memory, --password-passes), below "
          + "libsodium's interactive \(PasswordCost.interactive.description): a stolen hash is that much cheaper to guess"
      )
    }
    guard !loopback, admins == 0 else { return }
    let data = configuration.dataDirectory.map { " --data \($0)" } ?? ""
    let how =
      configuration.dataDirectory == nil
      ? "a shop kept in memory has no accounts at start; use --data DIR and create an admin there first"
      : "create one first:\n  stockroomd user add NAME --role admin\(data)"
    FileHandleWriter.standardError(
      "stockroomd: refusing to start: --host \(configuration.host) lets other machines connect, and the shop has no "
        + "admin account (protected mode); \(how)\nor listen on 127.0.0.1 only (the default).\n")
    exit(65)
  }

  /// Refuses, or with --insecure-permissions only warns about, a shop other users can read.
  private static func checkPermissions(_ directory: String, insecure: Bool, logger: Logger) {
    let exposed = ExposedFiles(directory: directory)
    guard !exposed.isEmpty else { return }
    let problem =
      "other users of this machine may read or write \(exposed), and with it every order, product and diary entry"
    if insecure {
      logger.warning("\(problem); started anyway (--insecure-permissions). To fix: \(exposed.fix)")
      return
    }
    FileHandleWriter.standardError(
      "stockroomd: refusing to start: \(problem). Make them yours alone with:\n  \(exposed.fix)\n"
        + "or start with --insecure-permissions to run anyway, with a warning.\n")
    exit(65)
  }
}
