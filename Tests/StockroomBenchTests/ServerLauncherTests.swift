import Foundation
import Testing

@testable import stockroom_bench

/// The comparison's launcher against the real programs: each server comes up on loopback, its
/// ports are read back, it answers, and stopping it leaves no process and no files behind.
@Suite("starting and stopping the compared servers", .timeLimit(.minutes(30)))
struct ServerLauncherTests {
  @Test(
    "a row's server starts, listens where the launcher says and answers; stopped, nothing of it is left",
    arguments: [BenchTarget.stockroom, .redis], [ReportRow.ping1, .orderAlways, .ping1TLS])
  func startAndStop(target: BenchTarget, row: ReportRow) throws {
    let servers = try BenchServers()
    defer { servers.remove() }
    let server = try servers.launcher.start(target, row)
    let pid = server.process.pid
    #expect(server.target == target)
    #expect(server.process.isRunning)
    #expect(BenchServers.isChild(pid))
    // Read from /proc for stockroomd (--port 0); picked in advance for redis-server.
    let listening = ListeningSockets.ports(of: pid)
    #expect(listening.contains(server.port), "\(listening) should hold \(server.port)")
    #expect(ServerProbe.answers(target, port: server.port))
    if row == .ping1TLS {
      let tlsPort = try #require(server.tlsPort)
      #expect(tlsPort != server.port)
      #expect(listening.contains(tlsPort), "\(listening) should hold the TLS port \(tlsPort)")
      #expect(server.loadPort == tlsPort)
    } else {
      #expect(server.tlsPort == nil)
      #expect(server.loadPort == server.port)
    }
    let folder = servers.workdir + (target == .stockroom ? "/data" : "/redis")
    // Only the durable rows write; their files go with the server.
    if row == .orderAlways { #expect(FileManager.default.fileExists(atPath: folder)) }
    let children = ServerProcess.children(of: pid)
    servers.launcher.stop(server)
    #expect(!server.process.isRunning)
    #expect(!BenchServers.isChild(pid), "stopped and reaped, not a zombie")
    #expect(!ChildProcess.running.withLock { $0.contains(pid) })
    for child in children { #expect(kill(child, 0) != 0, "the server's child \(child) is gone too") }
    #expect(!FileManager.default.fileExists(atPath: folder))
  }

  @Test("a program that cannot start is said so, with its log, and leaves nothing running")
  func refusedStart() throws {
    let servers = try BenchServers()
    defer { servers.remove() }
    // An option stockroomd does not know: it exits at once, three times.
    let broken = ServerLauncher(
      binaries: servers.launcher.binaries, redisServer: servers.launcher.redisServer, workdir: servers.workdir,
      options: {
        var options = servers.launcher.options
        options.stockroomArguments = ["--no-such-option"]
        return options
      }(), certificates: servers.launcher.certificates)
    #expect {
      _ = try broken.start(.stockroom, .ping1)
    } throws: { error in
      "\(error)".hasPrefix("stockroomd did not start (log below)") && "\(error)".contains("--no-such-option")
    }
    // Other tests start programs too; none of this one's may be left.
    let left = ServerProcess.children(of: getpid()).filter { pid in
      let arguments = (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? ""
      return arguments.contains("--no-such-option")
    }
    #expect(left.isEmpty)
  }
}
