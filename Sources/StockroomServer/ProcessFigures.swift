import Foundation
import StockroomTransport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The process's own figures as Prometheus' client libraries name them (`process_*`), read from
/// /proc/self at scrape time: CPU, resident memory, open and allowed descriptors.
package struct ProcessFigures {
  package var cpuSeconds: Double
  package var residentBytes: Double
  package var virtualBytes: Double
  package var openFiles: Double
  package var maxFiles: Double

  /// Nil when /proc cannot be read (not Linux, or hidden): then no `process_*` metric is shown.
  package static func read() -> ProcessFigures? {
    guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return nil }
    // Fields after the command name, which may hold spaces: state is field 3, so index 0 here.
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 22, let user = Double(fields[11]), let system = Double(fields[12]),
      let virtual = Double(fields[20]), let pages = Double(fields[21])
    else { return nil }
    let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
    let pageSize = Double(sysconf(Int32(_SC_PAGESIZE)))
    let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
    let limit = FileLimit.current().map { Double($0.rlim_cur) } ?? 0
    return ProcessFigures(
      cpuSeconds: (user + system) / ticks, residentBytes: pages * pageSize, virtualBytes: virtual,
      openFiles: Double(open), maxFiles: limit)
  }
}
