import StockroomEngine
import StockroomStorage

/// A driver's error made the engine's `CommitFailure`, here beside the drivers, so that no
/// SQLite or libpq error type reaches the engine.
extension CommitFailure {
  /// A failed write to the SQLite file: the disk's refusal (full, an I/O error, read-only), after
  /// which writes are refused until it accepts them again, or the rows' (a constraint, a bad
  /// value: a bug or a damaged file), after which writes go on.
  init(sqlite error: any Error) {
    let environmental = (error as? SQLiteError)?.isEnvironmental ?? false
    self.init(environmental ? .io : .logic, "\(error)")
  }

  /// A failed read or write of the shared store: the database's absence (writes are refused
  /// until it answers), or anything else, as the rows'.
  init(postgres error: any Error) {
    let unreachable = (error as? PostgresError)?.isUnavailable ?? false
    self.init(unreachable ? .unreachable : .logic, "\(error)")
  }
}
