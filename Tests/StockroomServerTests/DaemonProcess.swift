import Foundation
import StockroomTestSupport
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
  /// The readers of stderr (unless it goes to a file) and stdout, once the process runs.
  private var collected: PipeReader?
  private var printed: PipeReader?

  /// Where stderr goes instead of the pipe, when the test asks for a file.
  private let errorFile: URL?

  /// `prefix` runs the server under another program, such as `prlimit --fsize=...`. With
  /// `errorToFile` stderr goes to a file instead of a pipe, for a test that must know, once the
  /// process has exited, that a line is not there: a file holds every write it made, where a
  /// pipe's reader may not have had the last of them yet.
  /// `binary` runs another build of the server than the tests' own (the release build).
  init(_ arguments: [String], prefix: [String] = [], errorToFile: Bool = false, binary: URL = DaemonProcess.binary)
    throws
  {
    // Without --io it takes its backend from the STOCKROOM_IO it inherits, as in-process servers do.
    if !arguments.contains("--io") { IOBackendSuites.check(starting: "a stockroomd process") }
    if let program = prefix.first {
      process.executableURL = URL(fileURLWithPath: program)
      process.arguments = Array(prefix.dropFirst()) + [binary.path] + arguments
    } else {
      process.executableURL = binary
      process.arguments = arguments
    }
    if errorToFile {
      let file = FileManager.default.temporaryDirectory.appendingPathComponent("stderr-\(UUID().uuidString)")
      guard FileManager.default.createFile(atPath: file.path, contents: nil),
        let handle = FileHandle(forWritingAtPath: file.path)
      else { throw LineClient.Failure(description: "cannot make \(file.path)") }
      errorFile = file
      process.standardError = handle
    } else {
      errorFile = nil
      process.standardError = errorPipe
    }
    process.standardOutput = output
    try process.run()
    if errorFile == nil { collected = PipeReader(errorPipe.fileHandleForReading) }
    printed = PipeReader(output.fileHandleForReading)
  }

  var log: String {
    guard let errorFile else { return collected?.text ?? "" }
    return String(decoding: (try? Data(contentsOf: errorFile)) ?? Data(), as: UTF8.self)
  }

  /// Stops the server with SIGTERM and returns its log up to the line it writes on taking the
  /// signal, which comes after everything it did for requests already answered. A check that a
  /// line is absent reads this: before that marker, a line still in the pipe would pass it.
  func logThroughStop() throws -> String {
    process.terminate()
    guard logShows("stop signal=SIGTERM") else {
      throw LineClient.Failure(description: "no stop line in the log:\n\(log)")
    }
    return log
  }

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

  /// Waits for the log line that names the TLS port.
  func tlsPort() throws -> UInt16 {
    var port: UInt16?
    try waitUntil {
      if let match = log.firstMatch(of: /listening for tls on 127\.0\.0\.1:(\d+)/) { port = UInt16(match.1) }
      return port != nil || !process.isRunning
    }
    guard let port else { throw LineClient.Failure(description: "no TLS port in log: \(log)") }
    return port
  }

  /// Kills the server the hard way: no chance to flush, close or say goodbye.
  func kill9() throws -> Int32 {
    kill(process.processIdentifier, SIGKILL)
    return try waitForExit()
  }

  /// Whether the log shows `text` within `seconds`. The log arrives through a pipe, so a line
  /// the server wrote may be read a moment later; waiting for the pipe's end would not do, since
  /// a child another test starts at the same moment can inherit its write end and hold it open.
  func logShows(_ text: String, within seconds: TimeInterval = 10) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !log.contains(text) {
      guard Date() < deadline else { return false }
      usleep(10_000)
    }
    return true
  }

  func waitForExit() throws -> Int32 {
    try waitUntil { !process.isRunning }
    return process.terminationStatus
  }

  /// What the process printed on stdout, once it shows `text` (or after the deadline).
  func standardOutput(showing text: String) -> String {
    let deadline = Date().addingTimeInterval(10)
    while !(printed?.text ?? "").contains(text) && Date() < deadline { usleep(10_000) }
    return printed?.text ?? ""
  }

  deinit {
    if process.isRunning {
      process.terminate()
      // A server that does not stop when asked is a failure its test reports; it must not also
      // outlive the tests.
      let deadline = Date().addingTimeInterval(5)
      while process.isRunning && Date() < deadline { usleep(10_000) }
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
    if let errorFile { try? FileManager.default.removeItem(at: errorFile) }
  }
}

/// Text appended from another thread.
final class LockedText: @unchecked Sendable {
  private let lock = NSLock()
  private var storage = ""

  func append(_ text: String) {
    lock.lock()
    storage += text
    lock.unlock()
  }

  var text: String {
    lock.lock()
    defer { lock.unlock() }
    return storage
  }
}
