import CSQLite
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension SQLiteError {
  /// What this failure means for `file` and what to do about it, in words an operator can act on,
  /// with SQLite's own code and message at the end for those who know them.
  public func explained(file: String) -> String {
    let directory = FilePaths.parent(of: file)
    let grant = AccessAdvice.grant(directory: directory, files: [file])
    let advice: String
    switch code & 0xFF {
    case SQLITE_READONLY:
      advice =
        "\(file) cannot be written: the file, its directory or the file system is read-only for "
        + "\(AccessAdvice.currentUser), the user stockroomd runs as. Give that user the directory and its files "
        + "(\(grant)), or remount the file system read-write"
    case SQLITE_CANTOPEN, SQLITE_PERM:
      advice =
        "\(file) cannot be opened: check that \(directory) exists and that \(AccessAdvice.currentUser), the user "
        + "stockroomd runs as, may read and write it and every file in it (\(grant))"
    case SQLITE_FULL:
      advice = "there is no room left to write \(file): free space on its disk, then start again"
    case SQLITE_IOERR:
      switch systemErrno {
      case ENOSPC, EDQUOT:
        advice = "there is no room left to write \(file): free space on its disk (or raise the quota), then start again"
      case EFBIG:
        advice =
          "\(file) cannot grow: the file size limit of the process (ulimit -f) or of the file system is reached; "
          + "raise the limit or free space, then start again"
      case EACCES, EPERM, EROFS:
        advice =
          "\(file) cannot be written: \(AccessAdvice.describe(errno: systemErrno)). Give \(AccessAdvice.currentUser) "
          + "the directory and its files (\(grant)), or remount the file system read-write"
      default:
        advice =
          "reading or writing \(file) failed (an I/O error): check the free space on its disk (df) and the kernel "
          + "log (dmesg) for a failing disk, then start again; if the disk is sound and the error stays, restore a "
          + "backup made with `stockroomd backup`"
      }
    case SQLITE_CORRUPT, SQLITE_NOTADB:
      advice =
        "\(file): the file is damaged or not a database. Restore a backup made with `stockroomd backup` "
        + "(copy it to \(file)), or move the file away to start a new, empty shop"
    case SQLITE_BUSY, SQLITE_LOCKED:
      advice =
        "\(file) is locked by another program (a sqlite3 shell or a process with a transaction open on it): "
        + "close that program, then start again"
    default:
      advice = "SQLite cannot use \(file)"
    }
    let system = systemErrno == 0 ? "" : "; \(AccessAdvice.describe(errno: systemErrno))"
    return "\(advice) (SQLite error \(code): \(message)\(system))"
  }
}
