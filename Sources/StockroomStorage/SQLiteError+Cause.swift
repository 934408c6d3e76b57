import CSQLite

extension SQLiteError {
  /// The disk or the system refused the write (full, failing, read-only, out of memory, locked by
  /// someone else), as opposed to SQLite refusing the rows themselves (a constraint, a bad value).
  /// Only the first kind can go away by itself, which is what read-only mode waits for.
  public var isEnvironmental: Bool {
    switch code & 0xFF {
    case SQLITE_FULL, SQLITE_IOERR, SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_NOMEM, SQLITE_BUSY, SQLITE_LOCKED,
      SQLITE_PROTOCOL, SQLITE_NOLFS, SQLITE_CORRUPT, SQLITE_NOTADB, SQLITE_PERM:
      true
    default: false
    }
  }
}
