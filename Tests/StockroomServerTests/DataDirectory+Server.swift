import StockroomLogging
import StockroomServer
import StockroomStorage
import StockroomTestSupport
import StockroomTransport

extension DataDirectory {
  /// A server in this process on this directory's SQLite file, on the requested I/O backend and
  /// a port of the kernel's choice, logging nothing; `configure` sets anything more. Not started.
  func openServer(
    initialStock: Int?, _ configure: (inout ServerConfiguration) -> Void = { _ in }
  ) throws -> Server {
    var configuration = ServerConfiguration()
    configuration.io = requestedIOBackend(as: IOBackend.self)
    configuration.port = 0
    configuration.logging = false
    configuration.passwordCost = .least
    configuration.dataDirectory = path
    configure(&configuration)
    let catalog = try CatalogSource.load(path: TestServer.catalogPath, initialStock: initialStock)
    return try Server.open(
      configuration: configuration, catalog: catalog, catalogText: "{}", logger: Logger(isEnabled: false))
  }
}
