import Foundation

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

  deinit { try? FileManager.default.removeItem(atPath: path) }
}
