import CSQLite

/// A prepared statement. Not shareable between threads: each owner keeps its own.
public final class SQLiteStatement {
  let handle: OpaquePointer
  /// Where errors are read. A statement keeps its connection open (`keepAlive`), except one
  /// the connection caches itself: that one holding it back would keep it open for ever.
  private unowned let database: SQLiteDatabase
  private let keepAlive: SQLiteDatabase?

  /// `retaining` false only for a statement `database` itself holds, and releases before it closes.
  init(database: SQLiteDatabase, sql: String, retaining: Bool = true) throws(SQLiteError) {
    var statement: OpaquePointer?
    let result = sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
    guard result == SQLITE_OK, let statement else { throw database.error(result) }
    self.handle = statement
    self.database = database
    self.keepAlive = retaining ? database : nil
  }

  deinit { sqlite3_finalize(handle) }

  /// Binds `values` to ?1, ?2, … in order, after clearing earlier bindings.
  @discardableResult
  public func bind(_ values: [SQLiteValue]) throws(SQLiteError) -> SQLiteStatement {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      switch value {
      case .null: try check(sqlite3_bind_null(handle, index))
      case .integer(let number): try bind(index, number)
      case .text(let text): try bind(index, text)
      case .real(let number): try bind(index, number)
      }
    }
    return self
  }

  // Binding one parameter at a time: the group commit binds thousands of values a second, and
  // an array of enum values for each row was most of what it allocated.

  /// Binds `value` to parameter `index` (1-based). Bind every parameter before `execute`.
  public func bind(_ index: Int32, _ value: Int) throws(SQLiteError) {
    try check(sqlite3_bind_int64(handle, index, Int64(value)))
  }

  public func bind(_ index: Int32, _ value: Double) throws(SQLiteError) {
    try check(sqlite3_bind_double(handle, index, value))
  }

  public func bind(_ index: Int32, _ value: String) throws(SQLiteError) {
    var value = value
    try check(value.withUTF8 { bindText(index, $0) })
  }

  /// Binds UTF-8 `bytes` as text where they lie, without SQLite's copy (`SQLITE_STATIC`, a
  /// malloc, a copy and a free a value, ~2K instructions an order in the fold): for memory the
  /// caller allocated itself and keeps, unchanged, until the statement has stepped (never a
  /// Swift array's, whose pointer is good only inside `withUnsafeBufferPointer`). The binding
  /// still points there afterwards, so every parameter is bound again before the next step.
  func bind(_ index: Int32, lending bytes: UnsafeRawBufferPointer) throws(SQLiteError) {
    // A zero-length text still needs a non-null pointer, or SQLite binds NULL.
    guard let base = bytes.baseAddress, !bytes.isEmpty else {
      return try check(sqlite3_bind_text(handle, index, "", 0, SQLiteDatabase.transient))
    }
    try check(sqlite3_bind_text(handle, index, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil))
  }

  /// Binds `value` to parameter `index` without SQLite's copy and runs the statement (as
  /// `execute`), while the bytes are sure to be where they were bound; the binding is then
  /// cleared. The commit's record, a few hundred bytes copied once more per commit before.
  func execute(binding index: Int32, blob value: [UInt8]) throws(SQLiteError) {
    var failure: SQLiteError?
    value.withUnsafeBytes { bytes in
      let bound = sqlite3_bind_blob(
        handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count), nil)
      guard bound == SQLITE_OK else { return failure = database.error(bound) }
      let result = sqlite3_step(handle)
      sqlite3_reset(handle)
      // The error is read before the next call into SQLite replaces its message.
      if result != SQLITE_DONE && result != SQLITE_ROW { failure = database.error(result) }
      sqlite3_bind_null(handle, index)
    }
    if let failure { throw failure }
  }

  /// SQLite copies the bytes (`transient`), so they need to live only through the call.
  private func bindText(_ index: Int32, _ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
    // A zero-length text still needs a non-null pointer, or SQLite binds NULL.
    guard let base = bytes.baseAddress, !bytes.isEmpty else {
      return sqlite3_bind_text(handle, index, "", 0, SQLiteDatabase.transient)
    }
    return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
      sqlite3_bind_text(handle, index, $0, Int32(bytes.count), SQLiteDatabase.transient)
    }
  }

  public func bind(_ index: Int32, _ value: [UInt8]) throws(SQLiteError) {
    let result = value.withUnsafeBytes { bytes in
      // As for text: an empty blob still needs a non-null pointer.
      sqlite3_bind_blob(
        handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count),
        SQLiteDatabase.transient)
    }
    try check(result)
  }

  public func bind(_ index: Int32, _ value: Int?) throws(SQLiteError) {
    guard let value else { return try check(sqlite3_bind_null(handle, index)) }
    try bind(index, value)
  }

  public func bind(_ index: Int32, _ value: String?) throws(SQLiteError) {
    guard let value else { return try check(sqlite3_bind_null(handle, index)) }
    try bind(index, value)
  }

  /// Runs a statement bound parameter by parameter, which returns no rows, and readies it for
  /// the next bindings.
  public func execute() throws(SQLiteError) {
    let result = sqlite3_step(handle)
    sqlite3_reset(handle)
    guard result == SQLITE_DONE || result == SQLITE_ROW else { throw database.error(result) }
  }

  private func check(_ result: Int32) throws(SQLiteError) {
    guard result == SQLITE_OK else { throw database.error(result) }
  }

  /// Runs a statement that returns no rows.
  public func run(_ values: [SQLiteValue] = []) throws(SQLiteError) {
    try bind(values)
    try execute()
  }

  /// Steps to the next row; false at the end.
  public func step() throws(SQLiteError) -> Bool {
    let result = sqlite3_step(handle)
    if result == SQLITE_ROW { return true }
    sqlite3_reset(handle)
    guard result == SQLITE_DONE else { throw database.error(result) }
    return false
  }

  /// Every row as read by `row`.
  public func rows<T>(_ values: [SQLiteValue] = [], _ row: (SQLiteStatement) throws -> T) throws -> [T] {
    try bind(values)
    var out: [T] = []
    while try step() { out.append(try row(self)) }
    return out
  }

  public func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

  public func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

  public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

  public func text(_ column: Int32) -> String {
    guard let pointer = sqlite3_column_text(handle, column) else { return "" }
    let count = Int(sqlite3_column_bytes(handle, column))
    return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
  }

  public func blob(_ column: Int32) -> [UInt8] {
    // The pointer first, then its size: SQLite's documented order.
    let pointer = sqlite3_column_blob(handle, column)
    let count = Int(sqlite3_column_bytes(handle, column))
    guard count > 0, let pointer else { return [] }
    return Array(UnsafeRawBufferPointer(start: pointer, count: count))
  }

  public func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }
}
