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

  /// One column's value; a text is where its bytes lie in `lent`. Nothing in it is counted by
  /// reference, so rows are added and dropped without a retain or release (a slice of the
  /// record for each text cost two atomic operations, twelve an order).
  enum Field {
    case integer(Int)
    case optionalInteger(Int?)
    case real(Double)
    case text(start: Int, count: Int)
  }

  static let rowsPerStatement = 16

  private let layout: [Column]
  private var columns: Int { layout.count }
  private let single: SQLiteStatement
  private let multiple: SQLiteStatement
  /// The fields of the rows not yet written, row after row.
  private var fields: [Field] = []
  /// Where the texts of the rows not yet written lie, also while SQLite reads them without a
  /// copy of its own (`bind(_:lending:)`): memory of ours, which no Swift value moves or frees,
  /// copied into as each row is read (a few hundred bytes a statement) and reused once its
  /// rows are written. It grows only between statements, before any of its texts is bound.
  private var lent = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
  /// How much of `lent` the waiting rows' texts fill.
  private var lentCount = 0

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
      case .text: fields.append(try input.withTextBytes { lend($0) })
      }
    }
    guard fields.count == columns * Self.rowsPerStatement else { return }
    defer { discard() }
    try write(fields[...], with: multiple)
  }

  /// Writes the rows still waiting, one statement each.
  func flush() throws(SQLiteError) {
    defer { discard() }
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
    lentCount = 0
  }

  private func write(_ values: ArraySlice<Field>, with statement: SQLiteStatement) throws(SQLiteError) {
    var index: Int32 = 1
    for field in values {
      switch field {
      case .integer(let value): try statement.bind(index, value)
      case .optionalInteger(let value): try statement.bind(index, value)
      case .real(let value): try statement.bind(index, value)
      case .text(let start, let count):
        try statement.bind(index, lending: UnsafeRawBufferPointer(rebasing: lent[start..<start + count]))
      }
      index += 1
    }
    try statement.execute()
  }

  /// Copies a row's text into `lent`, growing it first if it is full: only while no statement
  /// is bound to it, since the rows are written after they are all read.
  private func lend(_ text: UnsafeBufferPointer<UInt8>) -> Field {
    let start = lentCount
    if start + text.count > lent.count {
      let bigger = UnsafeMutableRawBufferPointer.allocate(
        byteCount: max(lent.count * 2, start + text.count), alignment: 1)
      bigger.copyMemory(from: UnsafeRawBufferPointer(rebasing: lent[..<start]))
      lent.deallocate()
      lent = bigger
    }
    UnsafeMutableRawBufferPointer(rebasing: lent[start..<start + text.count])
      .copyMemory(from: UnsafeRawBufferPointer(text))
    lentCount = start + text.count
    return .text(start: start, count: text.count)
  }
}
