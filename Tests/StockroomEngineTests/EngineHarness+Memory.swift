import StockroomEngine
import StockroomLogging
import StockroomText

@testable import StockroomEngineHarness

/// The engine's tests run the harness in memory, as the server does with no data directory,
/// and speak to it through `EngineClient`s: no store on disk, no socket.
extension EngineHarness {
  /// The engine on a shop in memory with the daemon's default settings, as `configure` changes
  /// them (`--registration closed`, say); with `changes`, its changes take the path `changes`
  /// makes for it (a `HeldChanges`, to hold commits).
  convenience init(
    initialStock: Int? = nil, logger: Logger = Logger(isEnabled: false),
    configure: (inout EngineSettings) -> Void = { _ in }, changes: ((LockedShop) -> any ChangePath)? = nil
  ) throws {
    let catalog = try Self.catalog(initialStock: initialStock)
    var settings = Self.defaultSettings
    configure(&settings)
    try self.init(settings: settings, limits: Self.defaultLimits, logger: logger) { starter in
      Self.memoryShop(catalog, changes: changes, starter: starter)
    }
  }

  /// A connection, not yet greeted, coming from `host` when given.
  func connect(from host: String? = nil) -> EngineClient { EngineClient(channel(from: host)) }

  /// A connection, past the greeting unless `greeted` is false, logged in as `user` when given
  /// (the account is made first if missing).
  func client(greeted: Bool = true, as user: String? = nil, role: Role = .customer) throws -> EngineClient {
    let client = connect()
    if greeted { _ = try client.readReply() }
    if let user {
      try account(user, role: role)
      try client.logInExisting(user)
    }
    return client
  }
}
