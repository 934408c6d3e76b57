import Foundation
import StockroomFixtures
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The tests' tools (tmux, Chromium, PostgreSQL and its watchdog) get stdin, stdout and stderr
/// and nothing else: a descriptor some library left without close-on-exec lived on in a
/// cluster's watchdog for as long as the tests ran, where a socket or pipe the tests closed
/// could never reach its end.
@Suite("A test's program gets no descriptor of the test process's beyond the three", .timeLimit(.minutes(30)))
struct SubprocessDescriptorTests {
  @Test("a socket open without close-on-exec is not in the child")
  func onlyTheThreeReachTheChild() throws {
    var ends: [Int32] = [-1, -1]
    try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
    defer { for end in ends { close(end) } }
    let listing = FileManager.default.temporaryDirectory.appendingPathComponent("fds-\(UUID().uuidString)").path
    defer { unlink(listing) }
    let status = try Subprocess.run(
      "/bin/sh", ["-c", "ls /proc/self/fd"], environment: ["PATH": "/usr/bin:/bin"], stdout: listing)
    #expect(status == 0)
    let open = Set(try String(contentsOfFile: listing, encoding: .utf8).split(separator: "\n").compactMap { Int32($0) })
    // 0, 1, 2, and the one `ls` opens to read /proc/self/fd.
    #expect(!open.contains(ends[0]) && !open.contains(ends[1]), "\(open.sorted())")
    #expect(open.count <= 4, "\(open.sorted())")
  }
}
