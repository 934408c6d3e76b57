import Foundation
import StockroomDomain
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The shop's SQLite file: opening and checking it, loading the shop, and writing batches.
///
/// The writer connection is used by one thread only, the server's committer; that is what makes
/// the unchecked `Sendable` sound. Reads for STOCKTAKE go through a second connection behind a
/// lock, so they never wait for a commit (WAL lets readers and the writer run side by side).
public final class ShopDatabase: ShopJournal, @unchecked Sendable {
  public static let fileName = "stockroom.sqlite"

  public let path: String
  public let fsync: FsyncPolicy
  public var location: String { path }
  public var kind: JournalKind { .sqlite }
  /// Used under `access` only: by the committer's thread, and by a read of history that folds
  /// the commit log first.
  let writer: SQLiteDatabase
  let access = Mutex<Void>(())
  /// Records in the commit log that no fold has written into the tables yet: read without the
  /// lock, so that a read of history takes it only when there is something to fold.
  let unfolded = Atomic<Int>(0)
  /// Their size in bytes, under `access`.
  var unfoldedBytes = 0
  /// The connection the reads for commands use (`ShopDatabase+Reading`).
  let reader: Mutex<SQLiteDatabase?>
  private var statements: [String: SQLiteStatement] = [:]
  /// The statements every group commit runs, prepared once and held by name: finding them by
  /// their SQL text hashed the whole text for every row written.
  let hot: SQLiteHotStatements
  /// The counters as the last commit left them on disk; nil when not known, and then all are written.
  var savedCounters: ShopCounters?
  private var lastCheckpoint = Date()
  /// `stockroom.lock`, held (flock) for the server's life: it serialises the creation of a new
  /// shop and records the pid of the server using the directory.
  private let directoryLock: FileLock
  /// The database file itself, held (flock) for the server's life: two servers on one file would
  /// each trust their own copy of the shop in memory, and the lock file alone can be deleted.
  let databaseLock: FileLock

  public static let lockFileName = "stockroom.lock"

  /// Where the database of a data directory is.
  public static func path(in directory: String) -> String {
    (directory as NSString).appendingPathComponent(fileName)
  }

  /// Opens (creating when missing) the database in `directory`, checks it and migrates it.
  /// Only a missing file means a new shop: an empty file, or one that is not a Stockroom
  /// database, is refused.
  public init(directory: String, fsync: FsyncPolicy) throws {
    path = Self.path(in: directory)
    self.fsync = fsync
    try Self.makeDirectory(directory)
    directoryLock = try Self.lockDirectory(directory)
    databaseLock = try Self.lockDatabase(path, directory: directory)
    do {
      writer = try SQLiteDatabase(path: path, create: false, holding: databaseLock)
      try Self.checkWritable(writer, directory: directory)
      try Self.checkIntegrity(writer, path: path)
      try writer.execute("PRAGMA journal_mode = WAL")
      try writer.execute("PRAGMA synchronous = \(fsync.synchronousPragma)")
      // Checkpoints are the committer's to schedule in batch mode; elsewhere SQLite's default.
      if case .batch = fsync { try writer.execute("PRAGMA wal_autocheckpoint = 0") }
      try Schema.migrate(writer)
      hot = try SQLiteHotStatements(writer)
    } catch let error as SQLiteError {
      throw StorageError(error.explained(file: path))
    }
    reader = Mutex(try? SQLiteDatabase(path: path, readOnly: true, holding: databaseLock))
    do {
      // What the last run committed after its last fold: into the tables before anyone reads
      // them (the load, `stockroomd import`), and before the counters are checked against them.
      try countUnfolded()
      try foldLocked()
      try Self.checkCounters(writer, path: path)
    } catch let error as SQLiteError {
      throw StorageError(error.explained(file: path))
    } catch let error as DamagedRow {
      // A commit record that no version wrote: refused at start-up, naming the file.
      throw StorageError("\(path) is damaged: \(error). \(Self.restoreAdvice)")
    }
    directoryLock.write("\(getpid())\n")
  }

  func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
    if let cached = statements[sql] { return cached }
    let prepared = try writer.prepare(sql)
    statements[sql] = prepared
    return prepared
  }

  /// Folds the commit log into the tables and SQLite's log into the file, as a clean stop
  /// should leave them.
  public func checkpoint() throws {
    try access.withLock { _ in
      try foldLocked()
      try writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
  }

  /// A 64 KiB write, to learn whether writing works again after a failure: room for one tiny
  /// row is not room for the next batch of orders.
  public func probe() throws {
    try access.withLock { _ in
      try writer.transaction {
        try statement("INSERT OR REPLACE INTO probe(id, payload) VALUES (1, zeroblob(65536))").run()
      }
    }
  }

  /// In batch mode, forces the log to the disk when the interval has passed.
  public func syncIfDue(now: Date) throws {
    guard case .batch(let milliseconds) = fsync,
      now.timeIntervalSince(lastCheckpoint) * 1000 >= Double(milliseconds)
    else { return }
    lastCheckpoint = now
    // In WAL mode a checkpoint fsyncs the log before copying it into the database.
    try access.withLock { _ in try writer.execute("PRAGMA wal_checkpoint(PASSIVE)") }
  }

  /// Drops order keys past their retention.
  public func expireKeys(olderThan cutoff: Date) throws {
    try access.withLock { _ in
      // Folded first, so that no key older than the cutoff arrives after the delete.
      try foldLocked()
      try statement("DELETE FROM order_keys WHERE placed < ?").run([.real(cutoff.timeIntervalSince1970)])
    }
  }

  /// Writes a consistent copy of the database to `file` with SQLite's online backup.
  public static func backup(directory: String, to file: String) throws {
    let source = (directory as NSString).appendingPathComponent(fileName)
    guard FileManager.default.fileExists(atPath: source) else {
      throw StorageError("no Stockroom database at \(source)")
    }
    guard !FileManager.default.fileExists(atPath: file) else {
      throw StorageError("\(file) already exists; a backup never overwrites")
    }
    do {
      let database = try SQLiteDatabase(path: source, readOnly: true)
      try database.backup(to: file)
    } catch {
      throw StorageError("backup of \(source) to \(file) failed: \(error)")
    }
  }
}
