import Foundation
import StockroomProtocol
import StockroomStorage
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// What `stockroomd` refuses to start on, and what it says: real files, real processes.
@Suite("Start-up refusals", .timeLimit(.minutes(30)))
struct StartupRefusalTests {
  /// Starts `stockroomd` on `directory` and waits for it to give up.
  private func refusal(_ directory: String, _ extra: [String] = [], prefix: [String] = []) throws -> DaemonProcess {
    let daemon = try DaemonProcess(["--port", "0", "--data", directory] + extra, prefix: prefix)
    try waitUntil(timeout: 10) { !daemon.process.isRunning }
    #expect(daemon.process.terminationStatus == 65, "refused with its own exit code: \(daemon.log)")
    #expect(daemon.logShows("refusing to start"), "\(daemon.log)")
    return daemon
  }

  private func mode(_ path: String) throws -> Int {
    try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
  }

  private func chmod(_ path: String, _ mode: Int) throws {
    try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
  }

  /// A shop with two orders, two products and two diary entries, stopped, its log folded into
  /// the database file.
  private func stoppedShop() throws -> DataDirectory {
    let data = try DataDirectory()
    let (daemon, port) = try data.start()
    let client = try LineClient.greeted(port, user: "erin")
    #expect(try client.request("ORDER banana_juice 2").isOK)
    #expect(try client.request("ORDER kiwi_juice").isOK)
    #expect(try client.request("PRODUCT NEW name=Pear price=900").isOK)
    #expect(try client.request("PRODUCT NEW name=Plum price=800").isOK)
    #expect(try client.request("DIARY NEW one first").isOK)
    #expect(try client.request("DIARY NEW two second").isOK)
    daemon.process.terminate()
    #expect(try daemon.waitForExit() == 0)
    try SQLiteDatabase(path: data.database).execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return data
  }

  @Test("an empty (0-byte) database file is refused, named, and left as it is: only a missing file is a new shop")
  func emptyFile() throws {
    let data = try DataDirectory()
    #expect(
      FileManager.default.createFile(atPath: data.database, contents: Data(), attributes: [.posixPermissions: 0o600]))
    let daemon = try refusal(data.path)
    #expect(daemon.logShows("\(data.database) is empty"), "\(daemon.log)")
    #expect(daemon.logShows("stockroomd backup"))
    #expect(daemon.logShows("remove the empty file to start a new, empty shop"))
    #expect(try FileManager.default.attributesOfItem(atPath: data.database)[.size] as? Int == 0)

    // Removed, but with its log left behind: SQLite would replay that log into a new shop.
    try FileManager.default.removeItem(atPath: data.database)
    #expect(
      FileManager.default.createFile(
        atPath: data.database + "-wal", contents: Data(repeating: 7, count: 4096),
        attributes: [.posixPermissions: 0o600]))
    let orphan = try refusal(data.path)
    #expect(orphan.logShows("its log \(data.database)-wal is there"), "\(orphan.log)")
    #expect(!FileManager.default.fileExists(atPath: data.database))
  }

  @Test("a SQLite file that is not a Stockroom database is refused, with no tables as with some")
  func foreignFile() throws {
    let data = try DataDirectory()
    try SQLiteDatabase(path: data.database).execute("PRAGMA journal_mode = WAL")
    try chmod(data.database, 0o600)
    let daemon = try refusal(data.path)
    #expect(daemon.logShows("\(data.database) is a SQLite file but not a Stockroom database"), "\(daemon.log)")
    #expect(try SQLiteDatabase(path: data.database).scalar("SELECT count(*) FROM sqlite_master") == 0)

    try SQLiteDatabase(path: data.database).execute("CREATE TABLE notes(text TEXT)")
    let again = try refusal(data.path)
    #expect(again.logShows("not a Stockroom database"), "\(again.log)")
  }

  @Test("creating a new shop that fails half-way leaves no database file, and the next start makes a whole one")
  func interruptedCreation() throws {
    let parent = try DataDirectory()
    let directory = parent.path + "/shop"
    // A 16 KiB file-size limit stops the new database part-way through its tables.
    let failed = try refusal(directory, prefix: ["/usr/bin/prlimit", "--fsize=16384:unlimited"])
    #expect(failed.logShows("cannot create a new shop"), "\(failed.log)")
    let names = try FileManager.default.contentsOfDirectory(atPath: directory)
    #expect(!names.contains("stockroom.sqlite"), "a half-made shop under the real name: \(names)")
    #expect(names.allSatisfy { !$0.hasPrefix("stockroom.sqlite") }, "\(names)")

    let daemon = try DaemonProcess(["--port", "0", "--data", directory])
    let client = try LineClient.greeted(try daemon.port())
    #expect(try client.request("ORDER banana_juice").statusFields["order"] == "1")
    #expect(!FileManager.default.fileExists(atPath: directory + "/stockroom.sqlite.creating"))
    daemon.process.terminate()
  }

  @Test("with stockroom.lock deleted or renamed, a second server on the same shop is refused, by any path")
  func lockFileGone() throws {
    let data = try DataDirectory()
    let (first, port) = try data.start()
    let alice = try LineClient.greeted(port, user: "alice")
    #expect(try alice.request("DIARY NEW before \"written by the first server\"").isOK)
    #expect(try alice.request("ORDER banana_juice").statusFields["order"] == "1")
    let pid = first.process.processIdentifier
    let lock = data.path + "/stockroom.lock"

    try FileManager.default.removeItem(atPath: lock)
    let second = try refusal(data.path)
    #expect(second.logShows("in use by another stockroomd (pid \(pid))"), "\(second.log)")
    #expect(second.logShows(data.database))

    let link = data.path + "-link"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: data.path)
    defer { try? FileManager.default.removeItem(atPath: link) }
    try FileManager.default.moveItem(atPath: lock, toPath: lock + ".old")
    let third = try refusal(link)
    #expect(third.logShows("in use by another stockroomd (pid \(pid))"), "\(third.log)")

    // `stockroomd backup` reads the shop while it is held.
    let copy = try DataDirectory()
    let backup = try DaemonProcess(["backup", link, copy.database])
    #expect(try backup.waitForExit() == 0, "\(backup.log)")

    #expect(try alice.request("DIARY NEW after \"still the only writer\"").isOK)
    #expect(try alice.request("ORDER banana_juice").statusFields["order"] == "2")
    first.process.terminate()
    #expect(try first.waitForExit() == 0)
    let (restarted, again) = try data.start()
    let check = try LineClient.greeted(again, user: "alice")
    #expect(Set(try check.request("DIARY LIST").rows.compactMap { $0["title"] }) == ["before", "after"])
    #expect(try check.request("LIST orders").statusFields["total"] == "2")
    #expect(try check.request("STOCK banana").rows[0]["stock"] == "6")
    restarted.process.terminate()
  }

  @Test("a counter at or behind its rows (a hand-edited meta) is refused at start-up, naming counter, value and rows")
  func countersBehindRows() throws {
    let data = try stoppedShop()
    let cases: [(sql: String, undo: String, says: [String])] = [
      (
        "UPDATE meta SET value = 2 WHERE key = 'next_order_id'",
        "UPDATE meta SET value = 3 WHERE key = 'next_order_id'",
        ["next_order_id is 2", "order 2 already exists"]
      ),
      (
        "UPDATE meta SET value = 1 WHERE key = 'next_product_id'",
        "UPDATE meta SET value = 3 WHERE key = 'next_product_id'",
        ["next_product_id is 1", "product p2 already exists"]
      ),
      (
        "DELETE FROM meta WHERE key = 'next_diary_id'", "INSERT INTO meta VALUES ('next_diary_id', 3)",
        ["next_diary_id is 1 (missing)", "diary entry 2 already exists"]
      ),
      (
        "UPDATE meta SET value = 1 WHERE key = 'orders_made'", "UPDATE meta SET value = 2 WHERE key = 'orders_made'",
        ["orders_made is 1", "the orders table holds 2 orders"]
      ),
    ]
    for change in cases {
      try SQLiteDatabase(path: data.database).execute(change.sql)
      let daemon = try refusal(data.path)
      for words in change.says + [data.database, "stockroomd backup"] {
        #expect(daemon.logShows(words), "\(change.sql): \(daemon.log)")
      }
      try SQLiteDatabase(path: data.database).execute(change.undo)
    }
    let (daemon, port) = try data.start()
    #expect(try LineClient.greeted(port).request("ORDER banana_juice").statusFields["order"] == "3")
    daemon.process.terminate()
  }

  @Test("a flipped bit in a product row is refused as a damaged file, naming it and the way back")
  func flippedBit() throws {
    let data = try stoppedShop()
    var bytes = try Data(contentsOf: URL(fileURLWithPath: data.database))
    // Products are read whole at start-up (orders are read when asked for): one bit of the
    // currency of Pear's row, KRW becoming KRV.
    let marker = Data("KRW".utf8)
    let found = try #require(bytes.range(of: marker), "the product row is in the file")
    bytes[found.lowerBound + 2] ^= 0x01
    try bytes.write(to: URL(fileURLWithPath: data.database))
    let daemon = try refusal(data.path)
    #expect(daemon.logShows("\(data.database) is damaged"), "\(daemon.log)")
    #expect(daemon.logShows("currency"))
    #expect(daemon.logShows("restore a backup made with `stockroomd backup`"))
  }

  @Test("a disk with no room at start-up is refused in words, not as a bare SQLite I/O error")
  func noRoom() throws {
    let data = try stoppedShop()
    // The file-size limit plays the full disk, as in DiskFullTests.
    let daemon = try refusal(data.path, prefix: ["/usr/bin/prlimit", "--fsize=16384:unlimited"])
    #expect(daemon.logShows(data.database), "\(daemon.log)")
    #expect(daemon.logShows("ulimit -f") || daemon.logShows("no room left"), "\(daemon.log)")
    #expect(daemon.logShows("(SQLite error "), "the code stays, last, for experts")
  }

  /// Whether this test process may run `stockroomd` as the user nobody: as root, with the
  /// binary where nobody can reach it.
  static var canRunAsNobody: Bool {
    guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser") else { return false }
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
    probe.arguments = ["-u", "nobody", "--", "/bin/test", "-x", DaemonProcess.binary.path]
    guard (try? probe.run()) != nil else { return false }
    probe.waitUntilExit()
    return probe.terminationStatus == 0
  }

  // Root writes any file whatever its mode, so the server runs as nobody: a file nobody may only
  // read is read-only for it, and one it may not read is closed to it.
  @Test(
    "a database its user may not write, or not open, is refused with the chown and chmod that fix it",
    .enabled(if: StartupRefusalTests.canRunAsNobody))
  func readOnly() throws {
    let data = try stoppedShop()
    let runAsNobody = ["/usr/sbin/runuser", "-u", "nobody", "--"]
    let nobody = try #require(getpwnam("nobody")).pointee
    for path in [data.path, data.database, data.path + "/stockroom.lock"] {
      #expect(chown(path, nobody.pw_uid, nobody.pw_gid) == 0)
    }
    try chmod(data.database, 0o400)
    let readOnly = try refusal(data.path, prefix: runAsNobody)
    #expect(readOnly.logShows("\(data.database) is read-only for nobody"), "\(readOnly.log)")
    #expect(readOnly.logShows("chown nobody"))
    #expect(readOnly.logShows("chmod 600 \(data.database)"))

    #expect(chown(data.database, 0, 0) == 0)
    try chmod(data.database, 0o600)
    let closed = try refusal(data.path, prefix: runAsNobody)
    #expect(closed.logShows("cannot open \(data.database) (it is owned by root, mode 0600)"), "\(closed.log)")
    #expect(closed.logShows("chown nobody"))
  }

  @Test("a new shop is its user's alone: directory 0700, database, -wal, -shm and lock 0600, backups 0600")
  func privateFiles() throws {
    let parent = try DataDirectory()
    let directory = parent.path + "/shop"
    let daemon = try DaemonProcess(["--port", "0", "--data", directory])
    let client = try LineClient.greeted(try daemon.port(), user: "keeper")
    #expect(try client.request("DIARY NEW secret \"not for other users\"").isOK)
    #expect(try mode(directory) == 0o700)
    for name in ["stockroom.sqlite", "stockroom.sqlite-wal", "stockroom.sqlite-shm", "stockroom.lock"] {
      #expect(try mode(directory + "/" + name) == 0o600, "\(name)")
    }
    let backupFile = parent.path + "/copy.sqlite"
    let backup = try DaemonProcess(["backup", directory, backupFile])
    #expect(try backup.waitForExit() == 0)
    #expect(try mode(backupFile) == 0o600)
    daemon.process.terminate()
  }

  @Test(
    "a data directory or database others may read is refused with the chmod that fixes it, or with the option only warned about"
  )
  func exposedShop() throws {
    let data = try stoppedShop()
    try chmod(data.path, 0o755)
    let open = try refusal(data.path)
    #expect(open.logShows("chmod 700 \(data.path)"), "\(open.log)")
    #expect(open.logShows("--insecure-permissions"))

    let (warned, port) = try data.start(["--insecure-permissions"])
    #expect(warned.logShows(" WARN "), "\(warned.log)")
    #expect(warned.logShows(data.path + " (mode 0755)"))
    #expect(try LineClient.greeted(port).request("STOCK banana").rows[0]["stock"] == "6")
    warned.process.terminate()
    _ = try warned.waitForExit()

    try chmod(data.path, 0o700)
    try chmod(data.database, 0o644)
    let readable = try refusal(data.path)
    #expect(readable.logShows("chmod 600 \(data.database)"), "\(readable.log)")

    try chmod(data.database, 0o600)
    for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: data.database + suffix) {
      try chmod(data.database + suffix, 0o600)
    }
    let (fixed, _) = try data.start()
    fixed.process.terminate()
    #expect(try fixed.waitForExit() == 0)
  }
}
