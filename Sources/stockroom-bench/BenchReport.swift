import Foundation

/// The comparison `Scripts/bench` prints: its runs' result lines gathered per row and server,
/// medians over the rounds, and Stockroom ÷ Redis ratios turned so that above 1 means Stockroom
/// is better (requests per second: Stockroom ÷ Redis; CPU, memory and latency: Redis ÷ Stockroom).
struct BenchReport {
  static let servers = ["stockroom", "redis"]

  /// Facts about the whole run (`meta key=value ...` lines): date, cores, versions, mode.
  var meta: [String: String] = [:]
  var runs: [ResultLine] = []

  init(text: String) {
    for line in text.split(separator: "\n") {
      if line.hasPrefix("meta ") {
        meta.merge(ResultLine(line.dropFirst(5)).fields) { $1 }
        continue
      }
      let run = ResultLine(line)
      if run["row"] != nil && run["server"] != nil { runs.append(run) }
    }
  }

  /// The middle value, or the mean of the two middle ones; nil for none.
  static func median(_ values: [Double]) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  /// Stockroom ÷ Redis when more is better, Redis ÷ Stockroom when less is; nil without both.
  static func ratio(stockroom: Double?, redis: Double?, higherIsBetter: Bool) -> Double? {
    guard let stockroom, let redis, stockroom > 0, redis > 0 else { return nil }
    return higherIsBetter ? stockroom / redis : redis / stockroom
  }

  /// The figures each metric reads from a run line.
  static func keys(_ metric: ReportMetric) -> [String] {
    switch metric {
    case .throughput: ["rps", "cpu_us_per_request", "p50_us", "p99_us"]
    case .memory: ["bytes_per_connection", "rss_before_kib", "rss_after_kib", "connections"]
    case .fanout: ["p50_us", "p99_us", "max_us", "watchers", "changes"]
    }
  }

  func runs(_ row: ReportRow, _ server: String) -> [ResultLine] {
    runs.filter { $0["row"] == row.rawValue && $0["server"] == server }
  }

  /// The median of `key` over the valid runs of `row` on `server`.
  func median(_ row: ReportRow, _ server: String, _ key: String) -> Double? {
    Self.median(runs(row, server).filter(\.isValid).compactMap { $0.number(key) })
  }

  /// A server's CPU per PING one in flight (its ping1 row) over the C ceiling's: issue 46 asks
  /// for at most 1.1. nil without both.
  func overCeiling(_ server: String) -> Double? {
    guard let cpu = median(.ping1, server, "cpu_us_per_request"),
      let ceiling = median(.ceiling, BenchTarget.ceiling.rawValue, "cpu_us_per_request"), ceiling > 0
    else { return nil }
    return cpu / ceiling
  }

  /// Named ratios for a row: rps and cpu, bytes_per_connection, or p50 and p99; for the ceiling,
  /// each server's CPU per PING over the ceiling's.
  func ratios(_ row: ReportRow) -> [(name: String, value: Double?)] {
    if row == .ceiling {
      return Self.servers.map { ("\($0)_cpu_over_ceiling", overCeiling($0)) }
    }
    func ratio(_ key: String, higherIsBetter: Bool) -> Double? {
      Self.ratio(
        stockroom: median(row, "stockroom", key), redis: median(row, "redis", key),
        higherIsBetter: higherIsBetter)
    }
    switch row.metric {
    case .throughput:
      return [
        ("rps", ratio("rps", higherIsBetter: true)),
        ("cpu", ratio("cpu_us_per_request", higherIsBetter: false)),
      ]
    case .memory: return [("bytes_per_connection", ratio("bytes_per_connection", higherIsBetter: false))]
    case .fanout:
      return [("p50", ratio("p50_us", higherIsBetter: false)), ("p99", ratio("p99_us", higherIsBetter: false))]
    }
  }

  /// The rows that have at least one run, in the issue's order.
  var presentRows: [ReportRow] {
    ReportRow.allCases.filter { row in runs.contains { $0["row"] == row.rawValue } }
  }

  /// A Markdown table, so that it reads in a terminal and pastes into docs/performance.md.
  func table() -> String {
    var lines = [
      "| row | Stockroom | Redis | ratio | Stockroom CPU µs/req | Redis CPU µs/req | CPU ratio | runs | notes |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for row in presentRows {
      let ratios = ratios(row)
      var cells: [String] = [title(row)]
      switch row.metric {
      case .throughput where row == .ceiling:
        cells += ceilingCells()
      case .throughput:
        cells += [
          Self.text(median(row, "stockroom", "rps"), digits: 0),
          Self.text(median(row, "redis", "rps"), digits: 0),
          Self.text(ratios[0].value, digits: 2),
          Self.text(median(row, "stockroom", "cpu_us_per_request"), digits: 2),
          Self.text(median(row, "redis", "cpu_us_per_request"), digits: 2),
          Self.text(ratios[1].value, digits: 2),
        ]
      case .memory:
        cells += [
          Self.text(median(row, "stockroom", "bytes_per_connection"), digits: 0),
          Self.text(median(row, "redis", "bytes_per_connection"), digits: 0),
          Self.text(ratios[0].value, digits: 2), "", "", "",
        ]
      case .fanout:
        let pair = { (server: String) in
          Self.text(self.median(row, server, "p50_us"), digits: 0) + " / "
            + Self.text(self.median(row, server, "p99_us"), digits: 0)
        }
        cells += [
          pair("stockroom"), pair("redis"),
          Self.text(ratios[0].value, digits: 2) + " / " + Self.text(ratios[1].value, digits: 2),
          "", "", "",
        ]
      }
      cells.append(row.servers.map { String(runs(row, $0).count) }.joined(separator: " + "))
      let invalid = row.servers.compactMap { server -> String? in
        let count = runs(row, server).filter { !$0.isValid }.count
        return count > 0 ? "\(server): \(count) invalid run(s), left out" : nil
      }
      cells.append(invalid.joined(separator: "; "))
      lines.append("| " + cells.joined(separator: " | ") + " |")
    }
    return lines.joined(separator: "\n")
  }

  /// The ceiling's own rps and CPU per PING where a server's stand, and each server's CPU per
  /// PING as a multiple of it where the CPU ratio stands.
  func ceilingCells() -> [String] {
    let ceiling = BenchTarget.ceiling.rawValue
    let multiples = Self.servers.map { server in
      "\(server == "redis" ? "Redis" : "Stockroom") \(Self.text(overCeiling(server), digits: 2))×"
    }
    return [
      "ceiling: " + Self.text(median(.ceiling, ceiling, "rps"), digits: 0), "", "",
      "ceiling: " + Self.text(median(.ceiling, ceiling, "cpu_us_per_request"), digits: 2), "",
      multiples.joined(separator: ", ") + " the ceiling's CPU",
    ]
  }

  /// The row's title with the counts it was measured at, which `--quick` makes smaller.
  func title(_ row: ReportRow) -> String {
    let first = runs(row, "stockroom").first ?? runs(row, "redis").first
    switch row.metric {
    case .throughput: return row.title
    case .memory:
      return row.title + " (\(first?["connections"] ?? "?") connections)"
    case .fanout:
      return row.title + " (\(first?["watchers"] ?? "?") watchers, \(first?["changes"] ?? "?") changes)"
    }
  }

  /// Every figure: meta, and per row the medians, the ratios and each run's whole line.
  func json() throws -> Data {
    var rows: [[String: Any]] = []
    for row in presentRows {
      var entry: [String: Any] = ["row": row.rawValue, "title": title(row)]
      for server in row.servers {
        var medians: [String: Any] = [:]
        for key in Self.keys(row.metric) {
          if let value = median(row, server, key) { medians[key] = value }
        }
        entry[server] = [
          "median": medians,
          "runs": runs(row, server).map(\.fields).map(Self.typed),
        ]
      }
      var ratios: [String: Any] = [:]
      for ratio in self.ratios(row) { ratios[ratio.name] = ratio.value ?? NSNull() }
      entry["ratio"] = ratios
      rows.append(entry)
    }
    let document: [String: Any] = ["meta": meta, "rows": rows]
    return try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
  }

  /// Numbers as JSON numbers, everything else as text.
  private static func typed(_ fields: [String: String]) -> [String: Any] {
    fields.mapValues { text -> Any in Double(text).map { $0 as Any } ?? text }
  }

  /// `digits` decimals; whole numbers grouped by thousands; `-` for none.
  static func text(_ value: Double?, digits: Int) -> String {
    guard let value, value.isFinite else { return "-" }
    if digits > 0 { return String(format: "%.\(digits)f", value) }
    let whole = String(Int(value.rounded()).magnitude)
    var grouped = ""
    for (offset, character) in whole.enumerated() {
      if offset > 0 && (whole.count - offset) % 3 == 0 { grouped.append(",") }
      grouped.append(character)
    }
    return (value < 0 ? "-" : "") + grouped
  }
}
