import Synchronization

/// Prometheus' text exposition format, version 0.0.4: for each metric a `# HELP` and a
/// `# TYPE` line, then its samples. Names are checked here, label values escaped here, so no
/// metric can be written that a scraper would reject.
package struct MetricsText {
  package enum Kind: String {
    case counter, gauge, histogram
  }

  /// `Content-Type` of a scrape's answer.
  package static let contentType = "text/plain; version=0.0.4; charset=utf-8"

  package private(set) var text = ""

  package mutating func counter(_ name: String, _ help: String, _ value: Int) {
    family(name, .counter, help)
    sample(name, [], Double(value))
  }

  /// A counter read from the atomic that counts it; relaxed, because a scrape needs no order
  /// with other figures.
  package mutating func counter(_ name: String, _ help: String, _ value: borrowing Atomic<Int>) {
    counter(name, help, value.load(ordering: .relaxed))
  }

  package mutating func gauge(_ name: String, _ help: String, _ value: Double) {
    family(name, .gauge, help)
    sample(name, [], value)
  }

  /// One family with a sample per label set.
  package mutating func family(
    _ name: String, _ kind: Kind, _ help: String, samples: [(labels: [(String, String)], value: Double)]
  ) {
    family(name, kind, help)
    for (labels, value) in samples { sample(name, labels, value) }
  }

  package mutating func histogram(_ name: String, _ help: String, _ histogram: Histogram) {
    family(name, .histogram, help)
    let (buckets, sum, count) = histogram.snapshot
    for (bound, bucketCount) in buckets {
      sample(name + "_bucket", [("le", Self.number(bound))], Double(bucketCount))
    }
    sample(name + "_sum", [], sum)
    sample(name + "_count", [], Double(count))
  }

  private mutating func family(_ name: String, _ kind: Kind, _ help: String) {
    precondition(Self.isValidName(name), "metric name \(name)")
    text += "# HELP \(name) \(Self.escapedHelp(help))\n# TYPE \(name) \(kind.rawValue)\n"
  }

  private mutating func sample(_ name: String, _ labels: [(String, String)], _ value: Double) {
    text += name
    if !labels.isEmpty {
      text += "{" + labels.map { "\($0.0)=\"\(Self.escapedLabel($0.1))\"" }.joined(separator: ",") + "}"
    }
    text += " \(Self.number(value))\n"
  }

  /// Whole numbers without a fraction, others as Swift writes a Double; +Inf, -Inf and NaN as
  /// Prometheus spells them.
  package static func number(_ value: Double) -> String {
    if value.isNaN { return "NaN" }
    if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
    return String(value)
  }

  package static func isValidName(_ name: String) -> Bool {
    let scalars = Array(name.unicodeScalars)
    guard let first = scalars.first, first.isASCIILetter || first == "_" || first == ":" else { return false }
    return scalars.allSatisfy { $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "_" || $0 == ":" }
  }

  /// Label values escape backslash, double quote and line feed.
  package static func escapedLabel(_ value: String) -> String {
    value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
      .replacingOccurrences(of: "\n", with: "\\n")
  }

  /// HELP text escapes backslash and line feed.
  package static func escapedHelp(_ value: String) -> String {
    value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
  }

  package init() {}
}

extension Unicode.Scalar {
  fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
