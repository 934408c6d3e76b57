import Foundation

/// A process's resident memory as the kernel reports it in `/proc/PID/status`.
enum ProcessMemory {
  /// VmRSS in KiB, or nil once the process is gone.
  static func residentKiB(of pid: Int32) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return nil }
    return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
  }
}
