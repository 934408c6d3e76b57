import Foundation
import Testing

@testable import stockroom_bench

@Suite("reading the server's CPU and memory from /proc", .timeLimit(.minutes(30)))
struct ServerProcessTests {
  @Test("utime + stime are fields 14 and 15, counted after the command name's last parenthesis")
  func cpuTicks() {
    // A command name may hold spaces and parentheses; only the last ')' ends it.
    let stat = "1234 (odd) name) S 1 1234 1234 0 -1 4194560 100 0 0 0 250 75 0 0 20 0 3 0 100 0 0"
    #expect(ServerProcess.cpuTicks(stat: stat) == 325)
    #expect(ServerProcess.cpuTicks(stat: "1234 (short) S 1") == nil)
  }

  @Test("VmRSS in KiB")
  func resident() {
    let status = "Name:\tredis-server\nVmPeak:\t  99999 kB\nVmRSS:\t   12884 kB\nThreads:\t5\n"
    #expect(ServerProcess.residentKiB(status: status) == 12884)
    #expect(ServerProcess.residentKiB(status: "Name:\tx\n") == nil)
  }

  @Test("this process's own figures read back")
  func ownProcess() throws {
    let me = ServerProcess(pid: getpid())
    // Work until times(2) counts at least one tick of CPU (a count, not a time), then the figure
    // read from /proc must fall between what times(2) says before and after reading it.
    var usage = tms()
    repeat { _ = times(&usage) } while usage.tms_utime + usage.tms_stime < 1
    let before = Int(usage.tms_utime + usage.tms_stime)
    let read = try me.cpuTicks()
    times(&usage)
    let after = Int(usage.tms_utime + usage.tms_stime)
    #expect(before >= 1 && before <= read && read <= after, "times(2) \(before) then \(after), /proc \(read)")
    #expect(try me.residentKiB() > 0)
  }

  @Test("RSS growth per connection is in bytes, from KiB")
  func idleOutcome() {
    let outcome = IdleOutcome(connections: 2000, residentBeforeKiB: 10_000, residentAfterKiB: 30_000)
    #expect(outcome.bytesPerConnection == 10_240)
  }
}
