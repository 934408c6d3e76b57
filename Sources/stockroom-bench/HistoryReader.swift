import Foundation

/// Reads a history as JSON lines, one operation an object:
/// `{"op":"order"|"read","value":N,"start":T,"end":T}`, with an optional `"quantity"` (orders
/// only, at least 1, default 1) and an optional `"client"` (a string shown in a witness). Blank
/// lines are skipped; anything else (an unknown key, a fraction, `start` after `end`) is refused
/// with the line named, so that a typo never silently changes what is checked.
enum HistoryReader {
  static let keys: Set<String> = ["op", "value", "start", "end", "quantity", "client"]

  static func operations(in text: String) throws(HistoryError) -> [HistoryOperation] {
    var result: [HistoryOperation] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !trimmed.isEmpty else { continue }
      result.append(try operation(trimmed, line: index + 1))
    }
    return result
  }

  static func operation(_ text: String, line: Int) throws(HistoryError) -> HistoryOperation {
    func fail(_ message: String) -> HistoryError { HistoryError(line: line, message: message) }
    guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
      throw fail("not a JSON object: \(text.prefix(80))")
    }
    if let unknown = object.keys.sorted().first(where: { !keys.contains($0) }) {
      throw fail("unknown key \"\(unknown)\" (known: op, value, start, end, quantity, client)")
    }
    let kind: HistoryOperation.Kind
    switch object["op"] as? String {
    case "order": kind = .order
    case "read": kind = .read
    default: throw fail("\"op\" must be \"order\" or \"read\"")
    }
    func integer(_ key: String) throws(HistoryError) -> Int? {
      guard let raw = object[key] else { return nil }
      guard let value = exactInteger(raw) else { throw fail("\"\(key)\" must be an integer") }
      return value
    }
    guard let value = try integer("value") else { throw fail("\"value\" is missing") }
    guard let start = try integer("start") else { throw fail("\"start\" is missing") }
    guard let end = try integer("end") else { throw fail("\"end\" is missing") }
    guard start <= end else { throw fail("\"start\" (\(start)) is after \"end\" (\(end))") }
    let quantity = try integer("quantity")
    if let quantity {
      guard kind == .order else { throw fail("a read has no \"quantity\"") }
      guard quantity >= 1 else { throw fail("\"quantity\" must be at least 1") }
    }
    var client: String?
    if let raw = object["client"] {
      guard let name = raw as? String else { throw fail("\"client\" must be a string") }
      client = name
    }
    return HistoryOperation(kind, value: value, quantity: quantity, start: start, end: end, line: line, client: client)
  }

  /// `raw` as an Int when JSON wrote a whole number that fits: not a fraction or an exponent
  /// (1e3 comes back a double), a boolean (`c`) or a string. Foundation reads `1` as an NSNumber
  /// that also casts to Bool, so the number's own type is what tells them apart.
  private static func exactInteger(_ raw: Any) -> Int? {
    guard let number = raw as? NSNumber, ["s", "i", "l", "q"].contains(String(cString: number.objCType)) else {
      return nil
    }
    return number.intValue
  }
}
