import Foundation
import StockroomTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Chosen system calls of running processes, in the order `strace -f` saw them, each with the
/// file or socket it names (`-yy`) and the first bytes it moved: what a test reads to learn that
/// one call (a sync) came before another (a reply's write), where `SystemCallCount` only counts.
///
/// strace stops a traced thread at each call's entry and exit, so across processes its one
/// output file is in causal order: a sync that returned before a write began is above it.
final class SystemCallTrace {
  /// One call: its name, its arguments and result as strace printed them (an interrupted call's
  /// two halves joined), and the trace lines where it began and where it returned.
  struct Call {
    let pid: Int
    let name: String
    let text: String
    let began: Int
    let returned: Int
  }

  static let syncCalls: Set<String> = ["fsync", "fdatasync", "sync_file_range", "msync", "syncfs", "sync"]
  private static let strace = "/usr/bin/strace"

  private let scratch: URL
  private let output: String
  private var tracer: pid_t?

  /// Starts tracing `calls` in every thread of each of `processes` and of what they start, and
  /// returns once strace has said it attached to each process.
  init(_ processes: [Int32], calls: [String]) throws {
    scratch = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    output = scratch.appendingPathComponent("trace").path
    let messages = scratch.appendingPathComponent("messages").path
    let arguments = ["-f", "-yy", "-s", "16384", "-e", "trace=" + calls.joined(separator: ","), "-o", output]
    // With -f, strace attaches every thread of a process given by -p (a thread given as well
    // would be refused as attached already), and says "attached" once per process.
    tracer = try Subprocess.start(
      Self.strace, arguments + processes.flatMap { ["-p", String($0)] }, environment: [:], stderr: messages)
    try waitUntil(timeout: 60) {
      let text = (try? String(contentsOfFile: messages, encoding: .utf8)) ?? ""
      return text.components(separatedBy: " attached").count - 1 >= processes.count
    }
  }

  deinit {
    stop()
    try? FileManager.default.removeItem(at: scratch)
  }

  /// The calls traced so far: strace writes each line as it sees the call, so a test can wait
  /// for one to appear.
  func calls() -> [Call] {
    Self.parse((try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
  }

  /// Detaches strace (SIGINT, so it writes out what it has) and waits for it.
  func stop() {
    guard let tracer else { return }
    self.tracer = nil
    kill(tracer, SIGINT)
    var status: Int32 = 0
    while waitpid(tracer, &status, 0) < 0 && errno == EINTR {}
  }

  /// strace's lines with `-f`: "PID name(args) = result", or a call cut in two by another
  /// thread's, "PID name(args <unfinished ...>" and later "PID <... name resumed>rest".
  static func parse(_ text: String) -> [Call] {
    var calls: [Call] = []
    var pending: [Int: (name: String, text: String, began: Int)] = [:]
    for (index, line) in text.split(separator: "\n").enumerated() {
      guard let match = line.wholeMatch(of: /(\d+)\s+(.*)/), let pid = Int(match.1) else { continue }
      let rest = String(match.2)
      if let resumed = rest.firstMatch(of: /^<\.\.\. (\w+) resumed>(.*)/) {
        guard let start = pending.removeValue(forKey: pid) else { continue }
        calls.append(
          Call(pid: pid, name: start.name, text: start.text + resumed.2, began: start.began, returned: index))
      } else if let call = rest.firstMatch(of: /^(\w+)\(/) {
        let name = String(call.1)
        if rest.hasSuffix("<unfinished ...>") {
          pending[pid] = (name, String(rest.dropLast("<unfinished ...>".count)), index)
        } else {
          calls.append(Call(pid: pid, name: name, text: rest, began: index, returned: index))
        }
      }
    }
    return calls
  }
}
