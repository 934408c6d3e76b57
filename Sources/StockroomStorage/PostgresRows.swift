/// The rows a statement returned, copied out of libpq's result so they outlive it.
///
/// Values are PostgreSQL's text format; `nil` is SQL NULL.
public struct PostgresRows: Sendable, Equatable {
  public let columns: [String]
  public let values: [[String?]]
  /// For INSERT, UPDATE and DELETE, how many rows the statement touched.
  public let affected: Int

  public init(columns: [String], values: [[String?]], affected: Int) {
    self.columns = columns
    self.values = values
    self.affected = affected
  }

  public var count: Int { values.count }

  /// The value of `column` in row `row`; nil for NULL or a column the statement did not return.
  public subscript(row: Int, column: String) -> String? {
    guard let index = columns.firstIndex(of: column) else { return nil }
    return values[row][index]
  }
}
