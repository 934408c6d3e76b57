import Dispatch
import StockroomDomain
import StockroomProtocol
import StockroomStorage

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
      FileHandleWriter.standardError("stockroomd: \(error)\n\(ServerConfiguration.usage)\n")
      exit(64)
    }
    let logger = Logger(isEnabled: configuration.logging)
    let catalog: Catalog
    let catalogText: String
    do {
      (catalog, catalogText) = try CatalogSource.loadWithText(
        path: configuration.catalogPath, initialStock: configuration.initialStock)
    } catch {
      FileHandleWriter.standardError("stockroomd: \(error)\n")
      exit(66)
    }
    let server: Server
    do {
      server = try Server.open(
        configuration: configuration, catalog: catalog, catalogText: catalogText, logger: logger)
    } catch {
      FileHandleWriter.standardError("stockroomd: refusing to start: \(error)\n")
      exit(65)
    }
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
