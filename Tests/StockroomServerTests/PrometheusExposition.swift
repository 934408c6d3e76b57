import Foundation

/// A Prometheus text exposition (format 0.0.4) parsed strictly, every line: HELP and TYPE once
/// per family and before its samples, samples of a family together, names and label syntax as
/// the format defines them, escapes only where allowed, histograms whole (buckets ascending
/// and cumulative, ending in +Inf equal to _count, with _sum), no series twice. Anything else
/// throws, naming the line.
struct PrometheusExposition {
  struct Sample: Equatable {
    var name: String
    var labels: [String: String]
    var value: Double
  }

  struct Family {
    var name: String
    var type: String
    var help: String
    var samples: [Sample] = []
  }

  private(set) var families: [String: Family] = [:]
  private(set) var order: [String] = []

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  init(_ text: String) throws {
    guard text.hasSuffix("\n") else { throw Failure(description: "the exposition does not end with a line feed") }
    var current: String?
    var closed: Set<String> = []
    var series: Set<String> = []
    var helps: [String: String] = [:]
    for (index, line) in text.dropLast().split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let number = index + 1
      func fail(_ why: String) -> Failure {
        Failure(description: "line \(number) \(String(line).debugDescription): \(why)")
      }
      if line.hasPrefix("#") {
        let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count >= 3, parts[0] == "#", ["HELP", "TYPE"].contains(parts[1]) else {
          throw fail("a comment other than HELP or TYPE")
        }
        let name = String(parts[2])
        guard Self.isMetricName(name) else { throw fail("bad metric name") }
        if current != name {
          if let current { closed.insert(current) }
          guard !closed.contains(name) else { throw fail("family \(name) appears twice") }
          current = name
        }
        if parts[1] == "HELP" {
          guard parts.count == 4, !parts[3].isEmpty else { throw fail("HELP without text") }
          guard helps[name] == nil else { throw fail("second HELP") }
          guard families[name]?.samples.isEmpty ?? true else { throw fail("HELP after samples") }
          helps[name] = try Self.unescape(String(parts[3]), allowQuote: false, line: number)
        } else {
          guard parts.count == 4, ["counter", "gauge", "histogram", "summary", "untyped"].contains(parts[3]) else {
            throw fail("bad TYPE")
          }
          guard families[name] == nil else { throw fail("second TYPE") }
          families[name] = Family(name: name, type: String(parts[3]), help: helps[name] ?? "")
          order.append(name)
        }
        continue
      }
      guard !line.isEmpty else { throw fail("an empty line") }
      let sample = try Self.sample(String(line), line: number)
      guard let current, var family = families[current] else { throw fail("a sample before any TYPE") }
      let allowed =
        family.type == "histogram"
        ? [current + "_bucket", current + "_sum", current + "_count"] : [current]
      guard allowed.contains(sample.name) else { throw fail("sample \(sample.name) outside its family") }
      let key =
        sample.name + sample.labels.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
      guard series.insert(key).inserted else { throw fail("series given twice") }
      family.samples.append(sample)
      family.help = helps[current] ?? ""
      families[current] = family
    }
    for family in families.values {
      guard !family.help.isEmpty else { throw Failure(description: "\(family.name) has no HELP") }
      if family.type == "counter" {
        guard family.name.hasSuffix("_total") else { throw Failure(description: "counter \(family.name) lacks _total") }
        guard family.samples.allSatisfy({ $0.value >= 0 && $0.value.isFinite }) else {
          throw Failure(description: "counter \(family.name) has a negative or infinite value")
        }
      }
      if family.type == "histogram" { try Self.checkHistogram(family) }
    }
  }

  /// The value of the one sample `name` with exactly `labels`.
  func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
    families.values.lazy.flatMap(\.samples).first { $0.name == name && $0.labels == labels }?.value
  }

  private static func checkHistogram(_ family: Family) throws {
    var groups: [[String: String]: [Sample]] = [:]
    for sample in family.samples where sample.name.hasSuffix("_bucket") {
      guard sample.labels["le"] != nil else { throw Failure(description: "\(family.name) bucket without le") }
      var rest = sample.labels
      rest["le"] = nil
      groups[rest, default: []].append(sample)
    }
    guard !groups.isEmpty else { throw Failure(description: "\(family.name) has no buckets") }
    for (labels, buckets) in groups {
      let bounds = try buckets.map { bucket -> Double in
        guard let text = bucket.labels["le"], let bound = number(text) else {
          throw Failure(description: "\(family.name) bucket le \(bucket.labels["le"] ?? "")")
        }
        return bound
      }
      guard bounds == bounds.sorted(), Set(bounds).count == bounds.count, bounds.last == .infinity else {
        throw Failure(description: "\(family.name) buckets \(bounds) not ascending to +Inf")
      }
      let counts = buckets.map(\.value)
      guard counts == counts.sorted() else {
        throw Failure(description: "\(family.name) buckets not cumulative: \(counts)")
      }
      let count = family.samples.first { $0.name == family.name + "_count" && $0.labels == labels }?.value
      let sum = family.samples.first { $0.name == family.name + "_sum" && $0.labels == labels }?.value
      guard let count, sum != nil, count == counts.last else {
        throw Failure(description: "\(family.name) _count \(count ?? -1) is not the +Inf bucket, or _sum is missing")
      }
    }
  }

  /// `name{label="value",...} value [timestamp]`
  private static func sample(_ line: String, line number: Int) throws -> Sample {
    let fail = { (why: String) in Failure(description: "line \(number) \(line.debugDescription): \(why)") }
    let scalars = Array(line.unicodeScalars)
    var index = 0
    while index < scalars.count, scalars[index] != "{", scalars[index] != " " { index += 1 }
    let name = String(String.UnicodeScalarView(scalars[..<index]))
    guard isMetricName(name) else { throw fail("bad metric name") }
    var labels: [String: String] = [:]
    if index < scalars.count, scalars[index] == "{" {
      index += 1
      while true {
        let start = index
        while index < scalars.count, scalars[index] != "=" { index += 1 }
        let label = String(String.UnicodeScalarView(scalars[start..<index]))
        guard isLabelName(label), !label.hasPrefix("__") else { throw fail("bad label name \(label)") }
        guard index + 1 < scalars.count, scalars[index + 1] == "\"" else { throw fail("label value not quoted") }
        index += 2
        var value = String.UnicodeScalarView()
        while index < scalars.count, scalars[index] != "\"" {
          if scalars[index] == "\\" {
            guard index + 1 < scalars.count else { throw fail("escape at the end") }
            switch scalars[index + 1] {
            case "\\": value.append("\\")
            case "\"": value.append("\"")
            case "n": value.append("\n")
            default: throw fail("escape \\\(scalars[index + 1]) in a label value")
            }
            index += 2
          } else {
            value.append(scalars[index])
            index += 1
          }
        }
        guard index < scalars.count else { throw fail("label value not closed") }
        index += 1
        guard labels.updateValue(String(value), forKey: label) == nil else { throw fail("label \(label) twice") }
        guard index < scalars.count else { throw fail("labels not closed") }
        if scalars[index] == "," {
          index += 1
          continue
        }
        guard scalars[index] == "}" else { throw fail("expected , or } after a label") }
        index += 1
        break
      }
    }
    guard index < scalars.count, scalars[index] == " " else { throw fail("no single space before the value") }
    let rest = String(String.UnicodeScalarView(scalars[(index + 1)...])).split(
      separator: " ", omittingEmptySubsequences: false)
    guard (1...2).contains(rest.count), let value = Self.number(String(rest[0])) else { throw fail("bad value") }
    if rest.count == 2 { guard Int64(rest[1]) != nil else { throw fail("bad timestamp") } }
    return Sample(name: name, labels: labels, value: value)
  }

  static func number(_ text: String) -> Double? {
    switch text {
    case "+Inf": return .infinity
    case "-Inf": return -.infinity
    case "NaN": return .nan
    default:
      guard text.wholeMatch(of: /[-+]?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/) != nil else { return nil }
      return Double(text)
    }
  }

  static func isMetricName(_ name: String) -> Bool { name.wholeMatch(of: /[a-zA-Z_:][a-zA-Z0-9_:]*/) != nil }
  static func isLabelName(_ name: String) -> Bool { name.wholeMatch(of: /[a-zA-Z_][a-zA-Z0-9_]*/) != nil }

  private static func unescape(_ text: String, allowQuote: Bool, line: Int) throws -> String {
    var out = ""
    var escaping = false
    for character in text {
      if escaping {
        switch character {
        case "\\": out.append("\\")
        case "n": out.append("\n")
        default: throw Failure(description: "line \(line): escape \\\(character) in HELP")
        }
        escaping = false
      } else if character == "\\" {
        escaping = true
      } else {
        out.append(character)
      }
    }
    guard !escaping else { throw Failure(description: "line \(line): escape at the end of HELP") }
    return out
  }
}
