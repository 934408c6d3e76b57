import Foundation
import StockroomProtocol
import StockroomStorage
import StockroomTestSupport
import Testing

/// A fresh directory for one test's database, removed afterwards. It is its owner's alone
/// (0700), as `stockroomd` requires of a data directory.
final class DataDirectory: @unchecked Sendable {
  let path: String
  /// Where `start` keeps the shop: the SQLite file here, or a fresh PostgreSQL database.
  let store: StoreKind
  /// The PostgreSQL database, made (and the SQLite shop here imported into it, accounts and
  /// all) on the first `start`.
  private(set) var storeURL: String?

  init(store: StoreKind = .sqlite) throws {
    self.store = store
    path = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-data-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(
      atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: path)
  }

  var database: String { path + "/stockroom.sqlite" }

  /// Starts `stockroomd` on this directory (or its PostgreSQL store) and waits for its port.
  /// The options a test's daemon and its accounts hash passwords with: the least cost, as every
  /// test server's (`TestAccounts`); a test of the cost itself passes `--password-memory`.
  static let leastPasswordCost = ["--password-memory", "1", "--password-passes", "1"]

  func start(
    _ extra: [String] = [], prefix: [String] = [], binary: URL = DaemonProcess.binary
  ) throws -> (DaemonProcess, UInt16) {
    let location = store == .sqlite ? ["--data", path] : ["--store", try postgresURL()]
    let cost = extra.contains("--password-memory") ? [] : Self.leastPasswordCost
    let daemon = try DaemonProcess(["--port", "0"] + location + cost + extra, prefix: prefix, binary: binary)
    return (daemon, try daemon.port())
  }

  /// Accounts are made offline in SQLite (`addAccount`); the first start moves the shop into
  /// PostgreSQL with `stockroomd import`, as an operator moving a shop would.
  func postgresURL() throws -> String {
    if let storeURL { return storeURL }
    let cluster = try PostgresCluster.shared.get()
    let name = "shop_\(UUID().uuidString.prefix(8).lowercased())"
    try PostgresConnection(PostgresURL(cluster.url)).execute("CREATE DATABASE \(name)")
    let url = "postgresql://stockroom@127.0.0.1:\(cluster.port)/\(name)"
    let shop = FileManager.default.fileExists(atPath: database) ? ["import", "--data", path] : ["migrate"]
    let status = try Subprocess.run(DaemonProcess.binary.path, shop + ["--store", url], environment: [:])
    guard status == 0 else { throw LineClient.Failure(description: "stockroomd \(shop[0]) exited \(status)") }
    storeURL = url
    return url
  }

  /// What one `stockroomd user` run did.
  struct UserRun {
    var status: Int32
    var output: String
    var errors: String

    /// Everything the command showed, for checking that no secret is in it.
    var shown: String { output + errors }
  }

  /// Runs `stockroomd user ARGUMENTS --data` this directory, with `input` as its standard input
  /// and its output through files.
  func user(_ arguments: [String], input: String = "") throws -> UserRun {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("user-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let files = ["in", "out", "err"].map { scratch.appendingPathComponent($0).path }
    try Data(input.utf8).write(to: URL(fileURLWithPath: files[0]))
    let status = try Subprocess.run(
      DaemonProcess.binary.path, ["user"] + arguments + ["--data", path], environment: ["PATH": "/usr/bin:/bin"],
      stdin: files[0], stdout: files[1], stderr: files[2])
    let read = { (path: String) in
      String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data(), as: UTF8.self)
    }
    return UserRun(status: status, output: read(files[1]), errors: read(files[2]))
  }

  /// Makes an account offline with `stockroomd user add`, as an operator makes the first admin;
  /// its password is `LineClient.password(for:)`. Tests that need staff make `admin` first, who
  /// then makes them (see `LineClient.logIn`).
  @discardableResult
  func addAccount(_ name: String = "admin", role: Role = .admin) throws -> DataDirectory {
    let run = try user(
      ["add", name, "--role", role.rawValue] + Self.leastPasswordCost, input: LineClient.password(for: name) + "\n")
    guard run.status == 0 else {
      throw LineClient.Failure(description: "stockroomd user add \(name) exited \(run.status): \(run.errors)")
    }
    return self
  }

  /// Waits until this directory's shop is no longer held: see `waitUntilUnlocked(_:)`.
  func waitUntilUnlocked() { Self.waitUntilUnlocked(path) }

  /// Waits (for at most five minutes, a loaded machine's worst) until nothing holds the flock
  /// on `directory`'s lock file and database, as after an engine in this process has let them
  /// go. A child another test is spawning holds copies of this process's descriptors from its
  /// fork until its exec, the locks among them, so a file closed here can stay locked for a
  /// moment after. A lock still held then is recorded with its holder from /proc/locks, which
  /// is this process when an engine here was never let go.
  static func waitUntilUnlocked(_ directory: String) {
    let deadline = Date().addingTimeInterval(300)
    for file in [ShopDatabase.lockFileName, ShopDatabase.fileName] {
      let descriptor = open(directory + "/" + file, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else { continue }
      defer { close(descriptor) }
      while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
        guard Date() < deadline else {
          Issue.record("\(file) is still locked after five minutes, by \(lockHolders(of: descriptor))")
          return
        }
        usleep(10_000)
      }
      flock(descriptor, LOCK_UN)
    }
  }

  /// Who holds flocks on the file `descriptor` is open on ("pid N", or this test process).
  private static func lockHolders(of descriptor: Int32) -> String {
    let holders = FileLock.flockHolders(of: descriptor).map { $0 == getpid() ? "this test process" : "pid \($0)" }
    return holders.isEmpty ? "an unknown holder" : holders.joined(separator: ", ")
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}
