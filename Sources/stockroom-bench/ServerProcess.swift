import Foundation

/// The server under test, as /proc shows it: CPU time spent and memory resident.
struct ServerProcess: Sendable {
  let pid: Int32
  /// Other nodes serving the same load, whose CPU time counts with this one's.
  var others: [Int32] = []

  /// Clock ticks per second, what `getconf CLK_TCK` prints; /proc/PID/stat counts in these.
  static let ticksPerSecond = Int(sysconf(Int32(_SC_CLK_TCK)))

  /// User plus system time of every thread so far, in clock ticks.
  func cpuTicks() throws(BenchError) -> Int {
    var total = 0
    for process in [pid] + others {
      let text = try ServerProcess(pid: process).read("stat")
      guard let ticks = Self.cpuTicks(stat: text) else {
        throw BenchError("cannot read utime and stime from /proc/\(process)/stat")
      }
      total += ticks
    }
    return total
  }

  /// Resident memory in KiB (VmRSS).
  func residentKiB() throws(BenchError) -> Int {
    let text = try read("status")
    guard let kib = Self.residentKiB(status: text) else {
      throw BenchError("no VmRSS in /proc/\(pid)/status")
    }
    return kib
  }

  /// utime (field 14) plus stime (15). Counted after the last `)`, because the command name in
  /// field 2 may itself hold spaces and parentheses.
  static func cpuTicks(stat: String) -> Int? {
    guard let close = stat.lastIndex(of: ")") else { return nil }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    // fields[0] is field 3 (state), so field N is fields[N - 3].
    guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else {
      return nil
    }
    return user + system
  }

  static func residentKiB(status: String) -> Int? {
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
      return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }
    return nil
  }

  private func read(_ file: String) throws(BenchError) -> String {
    do {
      return try String(contentsOfFile: "/proc/\(pid)/\(file)", encoding: .utf8)
    } catch {
      throw BenchError("cannot read /proc/\(pid)/\(file): \(error)")
    }
  }
}

extension ServerProcess {
  /// The parent's pid (field 4 of /proc/PID/stat), counted after the command name's last `)`.
  static func parentPID(stat: String) -> Int32? {
    guard let close = stat.lastIndex(of: ")") else { return nil }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    return fields.count > 1 ? Int32(fields[1]) : nil
  }

  /// The processes `pid` started and that still run, from every /proc/N/stat.
  static func children(of pid: Int32) -> [Int32] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return names.compactMap { name -> Int32? in
      guard let child = Int32(name),
        let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
        parentPID(stat: stat) == pid
      else { return nil }
      return child
    }
  }
}
