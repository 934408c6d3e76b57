import Foundation
import StockroomProtocol
import StockroomTestSupport

/// A fresh directory for one test's database, removed afterwards. It is its owner's alone
/// (0700), as `stockroomd` requires of a data directory.
final class DataDirectory: @unchecked Sendable {
  let path: String

  init() throws {
    path = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-data-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(
      atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: path)
  }

  var database: String { path + "/stockroom.sqlite" }

  /// Starts `stockroomd` on this directory and waits for its port.
  func start(_ extra: [String] = [], prefix: [String] = []) throws -> (DaemonProcess, UInt16) {
    let daemon = try DaemonProcess(["--port", "0", "--data", path] + extra, prefix: prefix)
    return (daemon, try daemon.port())
  }

  /// Makes an account offline with `stockroomd user add`, as an operator makes the first admin;
  /// its password is `LineClient.password(for:)`. Tests that need staff make `admin` first, who
  /// then makes them (see `LineClient.logIn`).
  @discardableResult
  func addAccount(_ name: String = "admin", role: Role = .admin) throws -> DataDirectory {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("user-add-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let input = scratch.appendingPathComponent("in").path
    let errors = scratch.appendingPathComponent("err").path
    try Data((LineClient.password(for: name) + "\n").utf8).write(to: URL(fileURLWithPath: input))
    let status = try Subprocess.run(
      DaemonProcess.binary.path, ["user", "add", name, "--role", role.rawValue, "--data", path],
      environment: ["PATH": "/usr/bin:/bin"], stdin: input, stderr: errors)
    guard status == 0 else {
      throw LineClient.Failure(
        description:
          "stockroomd user add \(name) exited \(status): \((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")"
      )
    }
    return self
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}
