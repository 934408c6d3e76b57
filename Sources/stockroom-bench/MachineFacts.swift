import Foundation

/// What the results file says about the machine and the run, so that two runs can be compared:
/// date, cores, versions, clock ticks, the disk under the work folder, the load around the run.
enum MachineFacts {
  /// The `meta` lines at the top of the results.
  static func meta(options: ComparisonOptions, workdir: String) -> [String] {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    let arguments = options.stockroomArguments.isEmpty ? "none" : options.stockroomArguments.joined(separator: " ")
    return [
      "meta date=\(formatter.string(from: Date())) cores=\(ProcessInfo.processInfo.activeProcessorCount)"
        + " quick=\(options.mode.rawValue) rounds=\(options.rounds) connections=\(options.connections)",
      "meta redis=\(redisVersion(ChildProcess.find("redis-server") ?? "redis-server")) stockroom_args=\(arguments)"
        + " clk_tck=\(ServerProcess.ticksPerSecond)",
      "meta disk=\(disk(of: workdir)) load_before=\(loadAverage())",
    ]
  }

  /// `7.0.15` from `Redis server v=7.0.15 sha=...`.
  static func redisVersion(_ redisServer: String) -> String {
    let output = "/tmp/stockroom-bench-redis-version-\(getpid())"
    defer { unlink(output) }
    guard let run = try? ChildProcess(redisServer, ["--version"], stdout: output), run.wait(seconds: 10) == 0,
      let text = try? String(contentsOfFile: output, encoding: .utf8)
    else { return "unknown" }
    return version(text)
  }

  static func version(_ text: String) -> String {
    let words = text.split(separator: " ")
    guard words.count > 2 else { return "unknown" }
    let word = words[2]
    return String(word.hasPrefix("v=") ? word.dropFirst(2) : word)
  }

  /// The one-minute load average.
  static func loadAverage() -> String {
    let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
    return text.split(separator: " ").first.map(String.init) ?? "unknown"
  }

  /// The device mounted deepest above `path`, as `df -P` names it.
  static func disk(of path: String) -> String {
    let mounts = (try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)) ?? ""
    return disk(of: path, mounts: mounts)
  }

  static func disk(of path: String, mounts: String) -> String {
    var best: (device: String, point: String)? = nil
    for line in mounts.split(separator: "\n") {
      let fields = line.split(separator: " ")
      guard fields.count > 1 else { continue }
      let point = String(fields[1])
      let inside = point == "/" || path == point || path.hasPrefix(point + "/")
      if inside && point.count >= (best?.point.count ?? -1) { best = (String(fields[0]), point) }
    }
    return best?.device ?? "unknown"
  }
}
