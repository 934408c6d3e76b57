/// What `stockroomd import` copied: rows per table, in the order they were copied.
public struct ImportReport: Sendable, CustomStringConvertible {
  public var rows: [(table: String, count: Int)] = []

  public init() {}

  public func count(of table: String) -> Int? { rows.first { $0.table == table }?.count }

  public var description: String {
    rows.map { "\($0.table)=\($0.count)" }.joined(separator: " ")
  }
}
