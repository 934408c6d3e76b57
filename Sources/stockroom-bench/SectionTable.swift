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
    lines.append("")
    lines.append(storeRatios(runs))
    return lines.joined(separator: "\n")
  }

  /// Issue 23's targets for the stores, each with its measured ratio.
  static func storeRatios(_ runs: [ResultLine]) -> String {
    let runsOf = { (store: String) in runs.filter { $0["store"] == store } }
    let rate = { (store: String) in median(runsOf(store), "rps") }
    let ratio = { (top: Double, bottom: Double) in top > 0 && bottom > 0 ? fixed(top / bottom, 2) : "-" }
    let oneNode = runsOf("postgresql-1")
    let one = median(oneNode, "rps")
    let postgresCPU = oneNode.isEmpty ? "-" : fixed(median(oneNode, "postgres_cpu_us_per_order"), 1)
    return [
      "2 nodes ÷ 1 node: \(ratio(rate("postgresql-2"), one)) (target ≥ 1.0); 3 nodes ÷ 1 node: "
        + "\(ratio(rate("postgresql-3"), one)) (target ≥ 1.0)",
      "PostgreSQL 1 node ÷ SQLite: \(ratio(one, rate("sqlite"))) (target ≥ 0.5); PostgreSQL CPU per order, 1 node: "
        + "\(postgresCPU) µs (target ≤ 30)",
    ].joined(separator: "\n")
  }

  /// The read modes the reads table compares, the one under test first.
  static let readModes = ["linearizable", "cached"]

  /// STOCK through three nodes in each read mode, and what linearizable reads cost.
  static func reads(_ runs: [ResultLine]) -> String {
    var lines = [
      "| --reads | rps | p50 us | p99 us | node CPU us/read | PostgreSQL CPU us/read |",
      "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    var rates: [String: Double] = [:]
    for mode in readModes {
      let mine = runs.filter { $0["reads"] == mode }
      guard !mine.isEmpty else { continue }
      rates[mode] = median(mine, "rps")
      let cells = [
        mode, whole(median(mine, "rps")), whole(median(mine, "p50_us")), whole(median(mine, "p99_us")),
        fixed(median(mine, "cpu_us_per_request"), 2), fixed(median(mine, "postgres_cpu_us_per_request"), 2),
      ]
      lines.append("| " + cells.joined(separator: " | ") + " |")
    }
    if let linearizable = rates["linearizable"], let cached = rates["cached"], cached > 0 {
      lines.append("")
      lines.append(
        "linearizable ÷ cached: \(fixed(linearizable / cached, 2)) of the reads a second (issue 23's target: ≥ 0.75)")
    }
    return lines.joined(separator: "\n")
  }

  /// awk's `%d`: the whole part, no grouping.
  static func whole(_ value: Double) -> String { String(Int(value)) }

  static func fixed(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
}
