/// Rows for one table read from commit records (`CommitRecord`) and inserted `rowsPerStatement`
/// to a statement: a fold writes a ledger line and an order row for every order, and each
/// statement's own work (opening its cursors, ending it) cost about as much as inserting its row.
/// A statement takes its rows in the order they were added, so the table's row ids keep that
/// order. Rows short of a full statement wait for more, and `flush` writes them one by one.
///
/// Used by the writer's thread only, under `ShopDatabase.access`, like its statements.
final class BatchedInsert {
  /// How a column is written in the record.
  enum Column {
    case integer
    case optionalInteger
    case real
    case text
  }

  /// One column's value, its text still the commit record's bytes until its row is written.
  enum Field {
    case integer(Int)
    case optionalInteger(Int?)
    case real(Double)
    case text(ArraySlice<UInt8>)
  }

  static let rowsPerStatement = 16

  private let layout: [Column]
  private var columns: Int { layout.count }
  private let single: SQLiteStatement
  private let multiple: SQLiteStatement
  /// The fields of the rows not yet written, row after row.
  private var fields: [Field] = []
  /// Where a statement's text lies while SQLite reads it without a copy of its own
  /// (`bind(_:lending:)`): memory of ours, which no Swift value moves or frees, copied into
  /// once a statement (a few hundred bytes) and kept until the next one is bound.
  private var lent = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)

  /// `insert` names the table and its columns (`INSERT INTO t(a, b)`), which the record holds
  /// as `layout` says, in that order.
  init(_ database: SQLiteDatabase, _ insert: String, layout: [Column]) throws(SQLiteError) {
    self.layout = layout
    let row = "(" + Array(repeating: "?", count: layout.count).joined(separator: ", ") + ")"
    single = try database.prepare("\(insert) VALUES \(row)")
    multiple = try database.prepare(
      "\(insert) VALUES " + Array(repeating: row, count: Self.rowsPerStatement).joined(separator: ", "))
  }

  /// Reads one row from `input` and adds it.
  func addRow(from input: inout RecordReader) throws {
    for column in layout {
      switch column {
      case .integer: fields.append(.integer(try input.int()))
      case .optionalInteger: fields.append(.optionalInteger(try input.optionalInt()))
      case .real: fields.append(.real(try input.double()))
      case .text: fields.append(.text(try input.textBytes()))
      }
    }
    guard fields.count == columns * Self.rowsPerStatement else { return }
    defer { fields.removeAll(keepingCapacity: true) }
    try write(fields[...], with: multiple)
  }

  /// Writes the rows still waiting, one statement each.
  func flush() throws(SQLiteError) {
    defer { fields.removeAll(keepingCapacity: true) }
    var start = 0
    while start + columns <= fields.count {
      try write(fields[start..<start + columns], with: single)
      start += columns
    }
  }

  deinit { lent.deallocate() }

  /// Forgets rows not yet written: a fold that failed leaves none for the next.
  func discard() {
    fields.removeAll(keepingCapacity: true)
  }

  private func write(_ values: ArraySlice<Field>, with statement: SQLiteStatement) throws(SQLiteError) {
    reserveLent(for: values)
    var index: Int32 = 1
    var offset = 0
    for field in values {
      switch field {
      case .integer(let value): try statement.bind(index, value)
      case .optionalInteger(let value): try statement.bind(index, value)
      case .real(let value): try statement.bind(index, value)
      case .text(let bytes):
        let target = UnsafeMutableRawBufferPointer(rebasing: lent[offset..<offset + bytes.count])
        target.copyBytes(from: bytes)
        try statement.bind(index, lending: UnsafeRawBufferPointer(target))
        offset += bytes.count
      }
      index += 1
    }
    try statement.execute()
  }

  /// Makes `lent` hold every text of `values`, before any is bound: growing it later would free
  /// what earlier parameters point at.
  private func reserveLent(for values: ArraySlice<Field>) {
    var needed = 0
    for case .text(let bytes) in values { needed += bytes.count }
    guard needed > lent.count else { return }
    lent.deallocate()
    lent = UnsafeMutableRawBufferPointer.allocate(byteCount: max(needed, lent.count * 2), alignment: 1)
  }
}
