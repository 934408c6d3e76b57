import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `stockroomd` run as a real process, as a user or script would run it.
final class DaemonProcess: @unchecked Sendable {
  static var binary: URL {
    let executable = URL(
      fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "")
    return executable.deletingLastPathComponent().appendingPathComponent("stockroomd")
  }

  let process = Process()
  private let errorPipe = Pipe()
  private let output = Pipe()
  private let collected = LockedText()

  /// `prefix` runs the server under another program, such as `prlimit --fsize=...`.
  init(_ arguments: [String], prefix: [String] = []) throws {
    if let program = prefix.first {
      process.executableURL = URL(fileURLWithPath: program)
      process.arguments = Array(prefix.dropFirst()) + [Self.binary.path] + arguments
    } else {
      process.executableURL = Self.binary
      process.arguments = arguments
    }
    process.standardError = errorPipe
    process.standardOutput = output
    let collected = self.collected
    errorPipe.fileHandleForReading.readabilityHandler = { handle in
      let data = handle.availableData
      if data.isEmpty {
        collected.finish()
      } else {
        collected.append(String(decoding: data, as: UTF8.self))
      }
    }
    try process.run()
  }

  var log: String { collected.text }

  /// Waits for the log line that names the port the kernel chose.
  func port() throws -> UInt16 {
    var port: UInt16?
    try waitUntil {
      if let match = log.firstMatch(of: /listening on 127\.0\.0\.1:(\d+)/) { port = UInt16(match.1) }
      return port != nil || !process.isRunning
    }
    guard let port else { throw LineClient.Failure(description: "no port in log: \(log)") }
    return port
  }

  /// Kills the server the hard way: no chance to flush, close or say goodbye.
  func kill9() throws -> Int32 {
    kill(process.processIdentifier, SIGKILL)
    return try waitForExit()
  }

  /// Waits for the process to end and for everything it wrote to stderr to be read.
  func waitForExit() throws -> Int32 {
    try waitUntil { !process.isRunning }
    try waitUntil { collected.isFinished }
    return process.terminationStatus
  }

  var standardOutput: String {
    String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  }

  deinit {
    if process.isRunning { process.terminate() }
    errorPipe.fileHandleForReading.readabilityHandler = nil
  }
}

/// Text appended from another thread.
final class LockedText: @unchecked Sendable {
  private let lock = NSLock()
  private var storage = ""

  private var finished = false

  func append(_ text: String) {
    lock.lock()
    storage += text
    lock.unlock()
  }

  /// The writer closed its end: nothing more will come.
  func finish() {
    lock.lock()
    finished = true
    lock.unlock()
  }

  var isFinished: Bool {
    lock.lock()
    defer { lock.unlock() }
    return finished
  }

  var text: String {
    lock.lock()
    defer { lock.unlock() }
    return storage
  }
}
