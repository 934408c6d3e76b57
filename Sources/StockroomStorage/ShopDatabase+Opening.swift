import Foundation
import StockroomDomain

#if canImport(Glibc)
  import Glibc
#endif

/// Opening a shop's file: its directory, the locks that keep one server per shop, creating a
/// new shop safely, and the checks a file must pass before it is loaded.
extension ShopDatabase {
  /// Creates a missing data directory for this user alone (0700, as PostgreSQL does).
  static func makeDirectory(_ directory: String) throws {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
      guard isDirectory.boolValue else {
        throw StorageError("\(directory) is not a directory: --data names the directory that holds \(fileName)")
      }
      return
    }
    let parent = FilePaths.parent(of: directory)
    do {
      if !parent.isEmpty { try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true) }
    } catch {
      throw StorageError("cannot create \(parent) for the data directory: \(error.localizedDescription)")
    }
    guard mkdir(directory, 0o700) == 0 || errno == EEXIST else {
      let reason = AccessAdvice.describe(errno: errno)
      throw StorageError(
        "cannot create the data directory \(directory): \(reason); check that \(AccessAdvice.currentUser), the user "
          + "stockroomd runs as, may write \(parent.isEmpty ? "." : parent)")
    }
    syncDirectory(parent.isEmpty ? "." : parent)
  }

  /// Opens `path` to lock it, or fails with what `explain` says around the errno's words.
  private static func openLock(_ path: String, create: Bool, explain: (_ reason: String) -> String) throws -> FileLock {
    do {
      return try FileLock(path: path, create: create)
    } catch {
      throw StorageError(explain(AccessAdvice.describe(errno: error.code)))
    }
  }

  /// Takes `stockroom.lock`: one server per directory, and one creator of a new shop at a time.
  static func lockDirectory(_ directory: String) throws -> FileLock {
    let lockPath = (directory as NSString).appendingPathComponent(lockFileName)
    let lock = try openLock(lockPath, create: true) { reason in
      "cannot open \(lockPath): \(reason); \(AccessAdvice.currentUser), the user stockroomd runs as, must be able "
        + "to write \(directory) (\(AccessAdvice.grant(directory: directory, files: [path(in: directory)])))"
    }
    guard lock.tryLock() else {
      let pid = Int(lock.read().trimmingCharacters(in: .whitespacesAndNewlines)).map { " (pid \($0))" } ?? ""
      throw StorageError(
        "\(directory) is in use by another stockroomd\(pid): \(lockPath) is locked. One server per shop: stop "
          + "that server first; `stockroomd backup` copies the shop while it runs")
    }
    // A lock file left by an older server may be 0644; it should be as private as the rest.
    _ = fchmod(lock.descriptor, 0o600)
    return lock
  }

  /// Opens and locks the database file, creating a new shop first when, and only when, there is
  /// no file at all.
  static func lockDatabase(_ path: String, directory: String) throws -> FileLock {
    var info = stat()
    if lstat(path, &info) != 0 {
      let code = errno
      guard code == ENOENT else {
        throw StorageError(
          "cannot look at \(path): \(AccessAdvice.describe(errno: code)); check that \(AccessAdvice.currentUser) "
            + "may read \(directory)")
      }
      try refuseOrphanedLog(path)
      if let created = try createShop(path, directory: directory) { return created }
    }
    let lock = try openLock(path, create: false) { reason in
      let owner = AccessAdvice.ownership(path).map { " (it is \($0))" } ?? ""
      return "cannot open \(path)\(owner): \(reason). \(AccessAdvice.currentUser), the user stockroomd runs as, "
        + "must be able to read and write it: " + AccessAdvice.grant(directory: directory, files: [path])
    }
    guard lock.tryLock() else {
      let pid = lock.holder.map { " (pid \($0))" } ?? ""
      throw StorageError(
        "\(path) is in use by another stockroomd\(pid). One server per shop, whatever became of "
          + "\(lockFileName): stop that server first; `stockroomd backup` copies the shop while it runs")
    }
    guard lock.size > 0 else {
      throw StorageError(
        "\(path) is empty (0 bytes), as a failed copy or a full disk leaves a file; it is not a shop. Restore a "
          + "backup made with `stockroomd backup` (copy it to \(path)), or remove the empty file to start a new, "
          + "empty shop")
    }
    return lock
  }

  /// A log without its database means the database was moved or deleted and the log left
  /// behind; SQLite would replay it into a new file, so no new shop is made next to it.
  static func refuseOrphanedLog(_ path: String) throws {
    for log in [path + "-wal", path + "-journal"] {
      var info = stat()
      guard lstat(log, &info) == 0, info.st_size > 0 else { continue }
      throw StorageError(
        "\(path) is missing but its log \(log) is there: the database was moved or deleted without it. Put the "
          + "database back, or remove \(log) (and \(path)-shm) to start a new, empty shop")
    }
  }

  /// Makes a new shop without ever leaving a half-made file under the real name: it is built
  /// under a temporary name in the same directory, forced to disk, then linked into place and
  /// the directory synced. A crash leaves at most the temporary file, which the next start
  /// replaces. Returns nil when another server put a shop in place first.
  static func createShop(_ path: String, directory: String) throws -> FileLock? {
    let temporary = path + ".creating"
    let lock = try openLock(temporary, create: true) { reason in
      "cannot create \(temporary) for a new shop: \(reason); check that \(AccessAdvice.currentUser) may write "
        + directory
    }
    guard lock.tryLock() else {
      throw StorageError("\(directory) is in use by another stockroomd, which is creating a new shop in it")
    }
    // Whatever a crashed creation left is of no use, its journal least of all.
    for leftover in ["-journal", "-wal", "-shm"] { unlink(temporary + leftover) }
    do {
      try lock.reset()
      do {
        let database = try SQLiteDatabase(path: temporary, create: false, holding: lock)
        try database.execute("PRAGMA synchronous = FULL")
        try Schema.migrate(database)
      }
      try lock.sync()
    } catch let error as SQLiteError {
      unlink(temporary)
      throw StorageError("cannot create a new shop: " + error.explained(file: temporary))
    } catch let error as FileLock.OpenError {
      unlink(temporary)
      throw StorageError("cannot create a new shop in \(temporary): \(AccessAdvice.describe(errno: error.code))")
    } catch {
      unlink(temporary)
      throw error
    }
    // link, unlike rename, never replaces a file that appeared meanwhile (a second server started
    // at the same moment after the lock file was deleted). File systems without hard links get
    // the rename.
    if link(temporary, path) == 0 {
      unlink(temporary)
    } else if errno == EEXIST {
      unlink(temporary)
      return nil
    } else if rename(temporary, path) != 0 {
      let reason = AccessAdvice.describe(errno: errno)
      unlink(temporary)
      throw StorageError("cannot put the new shop in place as \(path): \(reason)")
    }
    syncDirectory(directory)
    return lock
  }

  /// Forces a directory's entries to the disk, so a file just created or renamed in it stays.
  static func syncDirectory(_ directory: String) {
    let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    _ = Glibc.fsync(descriptor)
    close(descriptor)
  }

  /// SQLite quietly opens a file read-only when it may not write it; the server must write.
  static func checkWritable(_ database: SQLiteDatabase, directory: String) throws {
    guard database.isReadOnly else { return }
    let owner = AccessAdvice.ownership(database.path).map { " (it is \($0))" } ?? ""
    throw StorageError(
      "\(database.path) is read-only for \(AccessAdvice.currentUser), the user stockroomd runs as\(owner); the "
        + "server must write it. Give that user the directory and its files: "
        + AccessAdvice.grant(directory: directory, files: [database.path])
        + " (or remount the file system read-write)")
  }

  /// A Stockroom database has a schema version; a file SQLite reads without one, tables or not,
  /// is some other program's, or a shop whose creation never finished.
  static func checkIntegrity(_ database: SQLiteDatabase, path: String) throws {
    let version = try database.readUserVersion()
    if version == 0 {
      let tables = try database.scalar("SELECT count(*) FROM sqlite_master") ?? 0
      throw StorageError(
        "\(path) is a SQLite file but not a Stockroom database (no schema version, \(tables) tables). Restore a "
          + "backup made with `stockroomd backup` (copy it to \(path)), or move the file away to start a new, "
          + "empty shop")
    }
    // The page-by-page check reads the whole file, seconds for a large shop: `verify` runs it
    // once the server is serving.
  }

  /// The id counters must be past every id in use and the order tally at least the orders kept:
  /// a counter behind its rows would hand out an id twice. Only an edited or damaged file has one.
  static func checkCounters(_ database: SQLiteDatabase, path: String) throws {
    var meta: [String: Int] = [:]
    let rows = try database.prepare("SELECT key, value FROM meta").rows([]) { row in (row.text(0), row.int(1)) }
    for (key, value) in rows { meta[key] = value }
    let defaults = ShopCounters()
    func refuse(_ key: String, _ value: Int, _ rows: String, fixedBy fixed: Int) -> StorageError {
      StorageError(
        "\(path) contradicts itself: the counter \(key) is \(value)\(meta[key] == nil ? " (missing)" : ""), but "
          + "\(rows). The file was edited or damaged: restore a backup made with `stockroomd backup`, or, if the rows "
          + "are right, set the counter: sqlite3 \(AccessAdvice.quoted(path)) \"INSERT OR REPLACE INTO meta VALUES "
          + "('\(key)', \(fixed))\"")
    }
    let checks: [(key: String, fallback: Int, sql: String, row: (Int) -> String)] = [
      ("next_order_id", defaults.nextOrderID, "SELECT max(id) FROM orders", { "order \($0)" }),
      ("next_product_id", defaults.nextProductID, "SELECT max(seq) FROM products", { "product p\($0)" }),
      ("next_diary_id", defaults.nextDiaryID, "SELECT max(id) FROM diary", { "diary entry \($0)" }),
    ]
    for check in checks {
      let next = meta[check.key] ?? check.fallback
      guard let highest = try database.scalar(check.sql), next <= highest else { continue }
      throw refuse(
        check.key, next, "\(check.row(highest)) already exists, so the next one would reuse an id", fixedBy: highest + 1
      )
    }
    let made = meta["orders_made"] ?? defaults.ordersMade
    let kept = try database.scalar("SELECT count(*) FROM orders") ?? 0
    if made < kept {
      throw refuse("orders_made", made, "the orders table holds \(kept) orders", fixedBy: kept)
    }
  }
}
