import CSQLite

#if canImport(Glibc)
  import Glibc
#endif

/// One SQLite connection: a thin, honest layer that turns result codes into `SQLiteError`.
///
/// A connection belongs to one thread at a time; the server gives the writer its own and the
/// readers another.
public final class SQLiteDatabase {
  let handle: OpaquePointer
  public let path: String
  /// Released only after the connection is closed: the lock on the database file must outlive
  /// every connection to it (see `FileLock`).
  private let keepAlive: AnyObject?

  /// SQLITE_TRANSIENT: SQLite copies bound text before the call returns.
  static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

  /// Set once, before the first connection initialises the library: SQLite's memory statistics
  /// took a global mutex and a size look-up on every malloc and free, several per row written,
  /// for counters nothing reads (`sqlite3_memory_used` and the heap limits then read nothing).
  private static let configured: Bool = stockroom_sqlite3_config_memstatus(0) == SQLITE_OK

  /// `holding` is kept alive until this connection has closed.
  public init(path: String, readOnly: Bool = false, create: Bool = true, holding: AnyObject? = nil)
    throws(SQLiteError)
  {
    _ = Self.configured
    var handle: OpaquePointer?
    var flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
    if create && !readOnly {
      flags |= SQLITE_OPEN_CREATE
      Self.createPrivately(path)
    }
    flags |= SQLITE_OPEN_NOMUTEX
    let result = sqlite3_open_v2(path, &handle, flags, nil)
    guard result == SQLITE_OK, let handle else {
      let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
      let system = handle.map { sqlite3_system_errno($0) } ?? 0
      if let handle { sqlite3_close_v2(handle) }
      throw SQLiteError(code: result, message: message, systemErrno: system)
    }
    self.handle = handle
    self.path = path
    self.keepAlive = holding
    sqlite3_extended_result_codes(handle, 1)
    // A writer holding the lock briefly (a checkpoint, a backup) should not fail readers at once.
    sqlite3_busy_timeout(handle, 5_000)
  }

  deinit {
    // Its own cached statements first, so that the close is a close and not a zombie's wait.
    transactionStatements = [:]
    sqlite3_close_v2(handle)
  }

  /// Creates a missing file readable by its owner only, before SQLite would create it 0644: a
  /// shop's files hold its orders and diaries. SQLite gives -wal, -shm and journals the mode of
  /// the database file.
  private static func createPrivately(_ path: String) {
    guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:") else { return }
    let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    if descriptor >= 0 { Glibc.close(descriptor) }
  }

  func error(_ code: Int32) -> SQLiteError {
    SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)), systemErrno: sqlite3_system_errno(handle))
  }

  /// Whether SQLite opened the file read-only although asked for writing: it falls back quietly
  /// when the file or its directory may not be written.
  public var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

  /// Runs one or more statements that return nothing.
  public func execute(_ sql: String) throws(SQLiteError) {
    var message: UnsafeMutablePointer<CChar>?
    let result = sqlite3_exec(handle, sql, nil, nil, &message)
    guard result == SQLITE_OK else {
      let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
      sqlite3_free(message)
      throw SQLiteError(code: result, message: text, systemErrno: sqlite3_system_errno(handle))
    }
  }

  public func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
    try SQLiteStatement(database: self, sql: sql)
  }

  /// The first column of the first row, as an integer.
  public func scalar(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> Int? {
    let statement = try prepare(sql)
    try statement.bind(values)
    guard try statement.step() else { return nil }
    defer { sqlite3_reset(statement.handle) }
    return statement.isNull(0) ? nil : statement.int(0)
  }

  public var userVersion: Int {
    (try? scalar("PRAGMA user_version")) ?? 0
  }

  /// `PRAGMA user_version`, failing when the file cannot be read: an I/O error must not pass for
  /// a database that has no schema yet.
  public func readUserVersion() throws(SQLiteError) -> Int {
    try scalar("PRAGMA user_version") ?? 0
  }

  /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
  public func transaction<T>(_ body: () throws -> T) throws -> T {
    try cached("BEGIN IMMEDIATE").run()
    do {
      let value = try body()
      try cached("COMMIT").run()
      return value
    } catch {
      try? execute("ROLLBACK")
      throw error
    }
  }

  /// BEGIN and COMMIT run for every group commit: compiled once, not parsed each time.
  private var transactionStatements: [String: SQLiteStatement] = [:]

  private func cached(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
    if let statement = transactionStatements[sql] { return statement }
    let statement = try SQLiteStatement(database: self, sql: sql, retaining: false)
    transactionStatements[sql] = statement
    return statement
  }

  /// The result of `PRAGMA quick_check`: "ok", or what is wrong.
  public func quickCheck() throws(SQLiteError) -> String {
    let statement = try prepare("PRAGMA quick_check")
    var lines: [String] = []
    while try statement.step() { lines.append(statement.text(0)) }
    return lines.joined(separator: "; ")
  }

  /// Copies this database into a new file at `path` with SQLite's online backup, which reads a
  /// consistent snapshot while others keep writing.
  public func backup(to path: String) throws(SQLiteError) {
    let target = try SQLiteDatabase(path: path)
    guard let backup = sqlite3_backup_init(target.handle, "main", handle, "main") else {
      throw target.error(sqlite3_errcode(target.handle))
    }
    var result: Int32
    repeat {
      result = sqlite3_backup_step(backup, 256)
      if result == SQLITE_BUSY || result == SQLITE_LOCKED { sqlite3_sleep(10) }
    } while result == SQLITE_OK || result == SQLITE_BUSY || result == SQLITE_LOCKED
    sqlite3_backup_finish(backup)
    guard result == SQLITE_DONE else { throw target.error(result) }
  }
}
