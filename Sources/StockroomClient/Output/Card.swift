import StockroomProtocol

/// One thing shown in full (SHOW, DIARY SHOW, EXPO, INFO): its name as a heading, then each
/// field on a line of its own, long text wrapped under its value and bodies under the heading.
struct Card {
  var row: Row
  var palette: Palette
  var dates: DateStyle
  var limit: Int?

  /// Shown in the heading or folded into another line, so not listed again.
  private static let folded: Set<String> = ["kind", "name", "title", "body", "initial"]

  func lines() -> [String] {
    var out: [String] = []
    let name = row["name"] ?? row["title"]
    let heading = [row.id, name].compactMap { $0 }.filter { !$0.isEmpty }
    if !heading.isEmpty { out.append(palette.header(heading.joined(separator: "  "))) }
    // A diary entry's body is what it is for: under the title, indented, line breaks kept.
    if let body = row["body"], !body.isEmpty {
      out += wrapped(body, indent: 4)
    }
    var pairs: [(String, String)] = []
    var pricePlaced = false
    let keys = row.fields.map(\.key)
    for field in row.fields {
      let key = field.key
      if Self.folded.contains(key) && !(key == "initial" && row["stock"] == nil) { continue }
      if PriceText.keys.contains(key) {
        if !pricePlaced, let price = PriceText.of(row) { pairs.append(("price", price)) }
        pricePlaced = true
        continue
      }
      if key.hasSuffix("_text"), keys.contains(String(key.dropLast("_text".count))) { continue }
      var value = row[key + "_text"] ?? field.value
      if key == "stock", let bar = StockBar.of(row) {
        value += " of \(row["initial"] ?? "") at the start  " + palette.bar(bar.text, fraction: bar.fraction)
      } else if let date = dates.full(iso: value) {
        value = date
      }
      if value.isEmpty { continue }
      pairs.append((key.isEmpty ? "-" : key.replacingOccurrences(of: "_", with: " "), value))
    }
    let keyWidth = pairs.map { DisplayWidth.of($0.0) }.max() ?? 0
    for (key, value) in pairs {
      let label = "  " + palette.dim(DisplayWidth.padRight(key, to: keyWidth)) + "  "
      let valueLines = wrapped(value, indent: keyWidth + 4)
      out.append(label + String(valueLines[0].drop { $0 == " " }))
      out += valueLines.dropFirst()
    }
    return out
  }

  /// Text broken to the terminal's width, every line indented by `indent` spaces.
  private func wrapped(_ text: String, indent: Int) -> [String] {
    let pad = String(repeating: " ", count: indent)
    guard let limit, limit - indent >= 20, !text.contains("\u{1B}") else {
      return text.split(separator: "\n", omittingEmptySubsequences: false).map { pad + $0 }
    }
    return TextWrap.lines(text, width: limit - indent).map { $0.isEmpty ? "" : pad + $0 }
  }
}
