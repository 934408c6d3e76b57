import Foundation
import StockroomTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// System calls a process makes while a test does something, counted with `strace -c`: a count
/// of work done, where a time would be noise on a shared 2-core machine.
enum SystemCallCount {
  private static let strace = "/usr/bin/strace"

  /// Calls by name, and `"total"`, that every thread of `pid` made while `body` ran, by strace's
  /// summary. `body` runs only once strace has said it attached to each thread.
  static func during(of pid: Int32, _ body: () throws -> Void) throws -> [String: Int] {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("strace-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let summary = scratch.appendingPathComponent("summary").path
    let messages = scratch.appendingPathComponent("messages").path
    let threads = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
    let tracer = try Subprocess.start(
      strace, ["-c", "-o", summary] + threads.flatMap { ["-p", $0] }, environment: [:], stderr: messages)
    defer {
      kill(tracer, SIGKILL)
      var status: Int32 = 0
      waitpid(tracer, &status, WNOHANG)
    }
    // strace says "Process N attached" for each thread before it counts anything of it.
    func attached() -> Int {
      let text = (try? String(contentsOfFile: messages, encoding: .utf8)) ?? ""
      return text.components(separatedBy: " attached").count - 1
    }
    try waitUntil { attached() >= threads.count }
    try body()
    kill(tracer, SIGINT)
    var status: Int32 = 0
    while waitpid(tracer, &status, 0) < 0 && errno == EINTR {}
    return try parse(try String(contentsOfFile: summary, encoding: .utf8))
  }

  /// strace's table: "% time seconds usecs/call calls [errors] syscall", rows and a "total" line
  /// alike, so the count is always the fourth column.
  static func parse(_ text: String) throws -> [String: Int] {
    var counts: [String: Int] = [:]
    for line in text.split(separator: "\n") {
      let words = line.split(separator: " ")
      guard words.count >= 5, Double(words[0]) != nil, let calls = Int(words[3]), let name = words.last else {
        continue
      }
      counts[String(name)] = calls
    }
    guard counts["total"] != nil else {
      throw LineClient.Failure(description: "no total in strace's summary:\n\(text)")
    }
    return counts
  }
}
