import Dispatch
import StockroomDomain
import StockroomProtocol

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// `stockroomd`'s whole life, kept in the library: Dispatch handlers written in `main.swift`
/// would inherit main-actor isolation and trap when Dispatch runs them on another queue.
public enum ServerMain {
  public static func run(arguments: [String]) -> Never {
    let configuration: ServerConfiguration
    do {
      switch try ServerConfiguration.parse(arguments) {
      case .help:
        print(ServerConfiguration.usage)
        exit(0)
      case .run(let parsed): configuration = parsed
      }
    } catch {
      FileHandleWriter.standardError("stockroomd: \(error)\n\(ServerConfiguration.usage)\n")
      exit(64)
    }
    let logger = Logger(isEnabled: configuration.logging)
    let catalog: Catalog
    do {
      catalog = try CatalogSource.load(path: configuration.catalogPath, initialStock: configuration.initialStock)
    } catch {
      FileHandleWriter.standardError("stockroomd: \(error)\n")
      exit(66)
    }
    let server = Server(configuration: configuration, catalog: catalog, logger: logger)
    do {
      let port = try server.start()
      logger.info(
        "start stockroomd \(ProtocolVersion.serverVersion) protocol=\(ProtocolVersion.current) pid=\(getpid()) port=\(port) fruits_start=\(catalog.initialStock)"
      )
    } catch {
      logger.error("cannot listen on \(configuration.host):\(configuration.port): \(error)")
      exit(69)
    }
    let signalQueue = DispatchQueue(label: "stockroom.signals")
    var sources: [any DispatchSourceSignal] = []
    for number in [SIGINT, SIGTERM] {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: signalQueue)
      source.setEventHandler {
        logger.info("stop signal=\(number == SIGINT ? "SIGINT" : "SIGTERM") clients=\(server.connectedClients)")
        server.stop()
        // Give connections a moment to say goodbye, then leave.
        signalQueue.asyncAfter(deadline: .now() + .milliseconds(100)) { exit(0) }
      }
      source.resume()
      sources.append(source)
    }
    withExtendedLifetime(sources) { dispatchMain() }
  }
}
