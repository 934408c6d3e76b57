/// One line of `key=value` words, as every `stockroom-bench` run prints and `Scripts/bench`
/// tags with `row=`, `server=` and `round=`.
struct ResultLine: Sendable, Equatable {
  var fields: [String: String]

  init(_ line: some StringProtocol) {
    var fields: [String: String] = [:]
    for word in line.split(separator: " ") {
      guard let equals = word.firstIndex(of: "=") else { continue }
      fields[String(word[..<equals])] = String(word[word.index(after: equals)...])
    }
    self.fields = fields
  }

  subscript(_ key: String) -> String? { fields[key] }

  func number(_ key: String) -> Double? {
    fields[key].flatMap { Double($0) }
  }

  /// A run that reported failed requests or dropped connections measured something else.
  var isValid: Bool {
    (fields["errors"] ?? "0") == "0" && (fields["dropped"] ?? "0") == "0"
  }
}
