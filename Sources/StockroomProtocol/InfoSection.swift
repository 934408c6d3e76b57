/// The parts `INFO` is grouped in, as Redis groups its INFO: `INFO clients` asks for one,
/// `INFO` for all. The names are wire data: the command table offers them to clients.
public enum InfoSection: String, Sendable, CaseIterable, Hashable {
  /// The release, the protocol, how long it has run, and the settings clients meet.
  case server
  /// Who is connected now, and this connection's own user and role.
  case clients
  /// Where the shop is kept, what it holds, and whether it takes writes.
  case store
  /// Counters since start: connections, commands, logins, orders, shortages, events.
  case stats
}
