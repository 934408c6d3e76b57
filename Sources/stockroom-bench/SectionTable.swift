import Foundation

/// The tables printed after the comparison's own: Stockroom's two I/O backends side by side, and
/// durable orders on SQLite against PostgreSQL stores. Medians as the script's awk took them.
enum SectionTable {
  /// The lower of the two middle values for an even count (the middle one for an odd count); a
  /// run that failed has no figure and counts as 0, so that it pulls the median down, not away.
  static func median(_ runs: [ResultLine], _ key: String) -> Double {
    let values = runs.map { $0.number(key) ?? 0 }.sorted()
    guard !values.isEmpty else { return 0 }
    return values[(values.count + 1) / 2 - 1]
  }

  /// `--io epoll` against `--io dispatch`, one line per row in the order the rows first ran.
  static func backends(_ runs: [ResultLine]) -> String {
    var rows: [String] = []
    for run in runs { if let row = run["row"], !rows.contains(row) { rows.append(row) } }
    var lines = [
      "| row | epoll rps | dispatch rps | ratio | epoll CPU us/req | dispatch CPU us/req | CPU ratio |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in rows {
      let epoll = runs.filter { $0["row"] == row && $0["io"] == "epoll" }
      let dispatch = runs.filter { $0["row"] == row && $0["io"] == "dispatch" }
      let (epollRPS, dispatchRPS) = (median(epoll, "rps"), median(dispatch, "rps"))
      let (epollCPU, dispatchCPU) = (median(epoll, "cpu_us_per_request"), median(dispatch, "cpu_us_per_request"))
      let cells = [
        row, whole(epollRPS), whole(dispatchRPS), epollRPS > 0 ? fixed(dispatchRPS / epollRPS, 2) : "-",
        fixed(epollCPU, 2), fixed(dispatchCPU, 2), dispatchCPU > 0 ? fixed(epollCPU / dispatchCPU, 2) : "-",
      ]
      lines.append("| " + cells.joined(separator: " | ") + " |")
    }
    return lines.joined(separator: "\n")
  }

  /// The stores in a fixed order, each present one a line.
  static let stores = ["sqlite", "postgresql-1", "postgresql-2", "postgresql-3"]

  /// One node on SQLite, 1 to 3 nodes on one PostgreSQL store.
  static func stores(_ runs: [ResultLine]) -> String {
    var lines = [
      "| store | rps | p50 us | p99 us | orders/commit | node CPU us/order | PostgreSQL CPU us/order |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for store in stores {
      let mine = runs.filter { $0["store"] == store }
      guard !mine.isEmpty else { continue }
      let cells = [
        store, whole(median(mine, "rps")), whole(median(mine, "p50_us")), whole(median(mine, "p99_us")),
        fixed(median(mine, "orders_per_commit"), 1), fixed(median(mine, "cpu_us_per_request"), 2),
        store == "sqlite" ? "-" : fixed(median(mine, "postgres_cpu_us_per_order"), 2),
      ]
      lines.append("| " + cells.joined(separator: " | ") + " |")
    }
    return lines.joined(separator: "\n")
  }

  /// awk's `%d`: the whole part, no grouping.
  static func whole(_ value: Double) -> String { String(Int(value)) }

  static func fixed(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
}
