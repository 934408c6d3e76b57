import Testing

@testable import stockroom_bench

@Suite("stockroom-bench's command line", .timeLimit(.minutes(30)))
struct BenchOptionsTests {
  @Test("a mode word comes first; the load mode is the default")
  func modes() throws {
    #expect(try BenchOptions.parse(["--case", "stock"])?.mode == .load)
    let fanOut = try #require(try BenchOptions.parse(["fanout", "--connections", "1000", "--changes=200"]))
    #expect(fanOut.mode == .fanout)
    #expect(fanOut.connections == 1000)
    #expect(fanOut.changes == 200)
    let idle = try #require(try BenchOptions.parse(["idle", "--connections", "10000", "--server-pid", "42"]))
    #expect(idle.mode == .idle)
    #expect(idle.serverPID == 42)
  }

  @Test("--requests and --server-pid are read; a timed run has neither")
  func countedRun() throws {
    let counted = try #require(try BenchOptions.parse(["--requests", "300000", "--server-pid", "7"]))
    #expect(counted.requests == 300_000)
    #expect(counted.serverPID == 7)
    let timed = try #require(try BenchOptions.parse([]))
    #expect(timed.requests == nil)
    #expect(timed.serverPID == nil)
  }

  @Test("load keeps one thread per connection, so it refuses more than 1000; idle needs a pid")
  func refusals() {
    #expect(throws: BenchError.self) { try BenchOptions.parse(["load", "--connections", "2000"]) }
    #expect(throws: BenchError.self) { try BenchOptions.parse(["idle", "--connections", "100"]) }
    #expect(throws: BenchError.self) { try BenchOptions.parse(["--requests", "0"]) }
    #expect(throws: BenchError.self) { try BenchOptions.parse(["--server-pid"]) }
  }
}
