import Foundation
import StockroomStorage
import StockroomTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Keeps a running `stockroomd`'s history reads waiting, from outside the server, until
/// released: the way a long report or a migration holding the tables would.
///
/// - PostgreSQL: another connection holds `LOCK TABLE ledger IN ACCESS EXCLUSIVE MODE` (the
///   table `STOCKTAKE` reads) in an open transaction.
/// - SQLite: the file is in WAL mode, where `BEGIN EXCLUSIVE` keeps out writers but never
///   readers, and a reader does not use the busy timeout. What a WAL reader does need is a shared
///   lock on one of the five read-mark bytes of the `-shm` file (bytes 123 to 127, SQLite's
///   documented wal-index layout); this process holds all five exclusively, so every new read
///   transaction retries, as it does while a checkpoint resets the log, until they are freed
///   (SQLite gives up after about ten seconds). The server must be another process: POSIX locks
///   do not keep a process out of its own.
final class HistoryLock {
  private enum Held {
    case postgres(PostgresConnection)
    case sqlite(Int32)
    case released
  }

  private var held: Held

  init(_ data: DataDirectory) throws {
    switch data.store {
    case .postgresql:
      guard let url = data.storeURL else { throw LineClient.Failure(description: "the store was never started") }
      let connection = try PostgresConnection(PostgresURL(url))
      try connection.execute("BEGIN")
      try connection.execute("LOCK TABLE ledger IN ACCESS EXCLUSIVE MODE")
      held = .postgres(connection)
    case .sqlite:
      let fd = open(data.database + "-shm", O_RDWR | O_CLOEXEC)
      guard fd >= 0 else { throw LineClient.Failure(description: "cannot open the -shm file: \(errno)") }
      var range = flock()
      range.l_type = Int16(F_WRLCK)
      range.l_whence = Int16(SEEK_SET)
      range.l_start = 123
      range.l_len = 5
      // Waits out a read the server may be in the middle of; it holds no read mark between reads.
      guard fcntl(fd, F_SETLKW, &range) == 0 else {
        close(fd)
        throw LineClient.Failure(description: "cannot lock the read marks: \(errno)")
      }
      held = .sqlite(fd)
    }
  }

  /// Whether a read of the server `pid` is now waiting for the lock, as the server itself
  /// shows it. PostgreSQL lists the waiting lock in `pg_locks`. SQLite's readers leave no such
  /// trace: they retry, so strace, attached to every thread of the server, must see one of them
  /// refused (EAGAIN) a lock on a read-mark byte this process holds.
  func readerWaits(in pid: Int32, within seconds: TimeInterval = 10) throws -> Bool {
    switch held {
    case .postgres(let connection):
      let deadline = Date().addingTimeInterval(seconds)
      while Date() < deadline {
        let waiting =
          try connection.query(
            "SELECT count(*) FROM pg_locks WHERE NOT granted AND relation = 'ledger'::regclass"
          ).values.first?[0] ?? nil
        if let waiting, let count = Int(waiting), count > 0 { return true }
        usleep(10_000)
      }
      return false
    case .sqlite:
      return try Self.refusedReadMark(in: pid, within: seconds)
    case .released:
      return false
    }
  }

  /// Whether strace sees a thread of `pid` refused a lock on one of the read-mark bytes
  /// (123 to 127) within `seconds`.
  private static func refusedReadMark(in pid: Int32, within seconds: TimeInterval) throws -> Bool {
    let trace = FileManager.default.temporaryDirectory.appendingPathComponent("strace-\(UUID().uuidString)").path
    defer { unlink(trace) }
    // With -p and -f, strace attaches to every thread of the process.
    let tracer = try Subprocess.start(
      "/usr/bin/strace", ["-f", "-e", "trace=fcntl", "-o", trace, "-p", String(pid)], environment: [:])
    defer {
      kill(tracer, SIGKILL)
      var status: Int32 = 0
      waitpid(tracer, &status, 0)
    }
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      let text = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
      let refused = text.split(separator: "\n").contains {
        $0.contains("EAGAIN") && $0.contains(/l_start=12[3-7],/)
      }
      if refused { return true }
      usleep(10_000)
    }
    return false
  }

  func release() {
    switch held {
    case .postgres(let connection): try? connection.execute("ROLLBACK")
    case .sqlite(let fd): close(fd)
    case .released: break
    }
    held = .released
  }

  deinit { release() }
}
