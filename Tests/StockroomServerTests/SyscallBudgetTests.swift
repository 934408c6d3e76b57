import Foundation
import StockroomTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// System calls per request, counted with `strace -c` on a real `stockroomd`: a regression
/// check that counts work instead of timing it, since time on a shared 2-core machine is noise
/// and valgrind cannot read this toolchain's debug info.
///
/// The budgets were measured on 2026-12-01 on the 2-core CI kind (Debian 12, Swift 6.3.1, one
/// event loop, a client on loopback), attaching strace to every thread of the server after the
/// connection was made, then sending the requests:
///
/// | case | measured per request | what it is |
/// |---|---|---|
/// | PING, one in flight | 3.00 | epoll_wait, read, write |
/// | PING, 16 pipelined | 0.19 | one epoll_wait, read and write per 16 |
/// | STOCK banana, one in flight | 3.00 | as PING: a read takes no lock that sleeps |
/// | ORDER, `--fsync always`, one in flight | 29.8 | the loop's 3, a futex pair to and from the committer, SQLite's commit: ~14.5 pwrite64 (7 WAL frames, header and page each), 6 fcntl locks, 1 fdatasync |
///
/// These are the epoll backend's, so the servers here run `--io epoll` whatever the run asks for.
/// The same counts under `--io dispatch` (2026-12-02, Scripts/test's dispatch run): 11.0 calls per
/// PING, 0.69 per pipelined PING, 11.0 per STOCK and 35.2 per durable ORDER, since Dispatch re-arms
/// each source in its own epoll set after every event and wakes a worker thread for it (futex).
///
/// Each budget is the measurement plus a margin for what varies (a WAL checkpoint falling in
/// the window, a spurious wake-up); a change that adds a call per request breaks it.
@Suite("System calls per request", .serialized)
struct SyscallBudgetTests {
  private static let strace = "/usr/bin/strace"

  /// The calls every thread of `pid` makes while `body` runs, by strace's summary.
  private func countCalls(of pid: Int32, during body: () throws -> Void) throws -> Int {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("strace-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let summary = scratch.appendingPathComponent("summary").path
    let messages = scratch.appendingPathComponent("messages").path
    let threads = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
    let tracer = try Subprocess.start(
      Self.strace, ["-c", "-o", summary] + threads.flatMap { ["-p", $0] }, environment: [:], stderr: messages)
    defer {
      kill(tracer, SIGKILL)
      var status: Int32 = 0
      waitpid(tracer, &status, WNOHANG)
    }
    // strace says "Process N attached" for each thread before it counts anything of it.
    let deadline = Date().addingTimeInterval(20)
    func attached() -> Int {
      let text = (try? String(contentsOfFile: messages, encoding: .utf8)) ?? ""
      return text.components(separatedBy: " attached").count - 1
    }
    while attached() < threads.count && Date() < deadline { usleep(10_000) }
    guard attached() >= threads.count else {
      throw LineClient.Failure(
        description: "strace attached to \(attached()) of \(threads.count) threads: "
          + ((try? String(contentsOfFile: messages, encoding: .utf8)) ?? ""))
    }
    try body()
    kill(tracer, SIGINT)
    var status: Int32 = 0
    while waitpid(tracer, &status, 0) < 0 && errno == EINTR {}
    let text = try String(contentsOfFile: summary, encoding: .utf8)
    // The last line: "100.00    0.022611     3      6008      total" (an errors column may precede the name).
    guard let total = text.split(separator: "\n").last(where: { $0.hasSuffix("total") }),
      let calls = total.split(separator: " ").dropFirst(3).first.flatMap({ Int($0) })
    else { throw LineClient.Failure(description: "no total in strace's summary:\n\(text)") }
    return calls
  }

  /// Sends `request` `count` times, `pipeline` at a time, and reads every reply.
  private func drive(_ client: LineClient, _ request: String, count: Int, pipeline: Int) throws {
    var sent = 0
    while sent < count {
      let batch = min(pipeline, count - sent)
      try client.send(String(repeating: request + "\n", count: batch))
      for _ in 0..<batch {
        let reply = try client.readReply()
        guard reply.isOK else { throw LineClient.Failure(description: "\(request): \(reply.lines)") }
      }
      sent += batch
    }
  }

  private func measure(
    _ daemon: DaemonProcess, port: UInt16, _ request: String, count: Int, pipeline: Int
  ) throws -> Double {
    let client = try LineClient(port: port)
    _ = try client.readReply()
    // Warm: the first requests grow buffers and fault pages in once.
    try drive(client, request, count: 32, pipeline: pipeline)
    let calls = try countCalls(of: daemon.process.processIdentifier) {
      try drive(client, request, count: count, pipeline: pipeline)
    }
    return Double(calls) / Double(count)
  }

  @Test("PING and STOCK cost one epoll_wait, one read and one write; pipelined, a sixteenth of that")
  func reads() throws {
    let daemon = try DaemonProcess(["--memory", "--port", "0", "--loops", "1", "--io", "epoll"])
    let port = try daemon.port()
    let ping = try measure(daemon, port: port, "PING", count: 2000, pipeline: 1)
    #expect(ping <= 3.1, "PING one in flight: \(ping) calls per request, budget 3.1")
    let pipelined = try measure(daemon, port: port, "PING", count: 3200, pipeline: 16)
    #expect(pipelined <= 0.25, "PING 16 pipelined: \(pipelined) calls per request, budget 0.25")
    let stock = try measure(daemon, port: port, "STOCK banana", count: 2000, pipeline: 1)
    #expect(stock <= 3.1, "STOCK one in flight: \(stock) calls per request, budget 3.1")
  }

  @Test("a durable ORDER costs the loop's three calls, the hand-off to the committer and SQLite's commit")
  func durableOrders() throws {
    let data = try DataDirectory()
    let (daemon, port) = try data.start([
      "--loops", "1", "--io", "epoll", "--initial-stock", "100000", "--fsync", "always",
    ])
    let order = try measure(daemon, port: port, "ORDER banana_juice", count: 500, pipeline: 1)
    #expect(order <= 34, "ORDER one in flight: \(order) calls per request, budget 34")
  }
}
