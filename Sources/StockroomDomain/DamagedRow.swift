/// A row whose text cannot be read back: written by no version of Stockroom, so the file was
/// edited or damaged (a flipped bit in a separator is enough).
public struct DamagedRow: Error, Sendable, CustomStringConvertible {
  /// What the text should have been: "order line", "item list", "discount".
  public var kind: String
  public var text: String

  public init(_ kind: String, _ text: String) {
    self.kind = kind
    self.text = text
  }

  /// The bad text, shortened: an order has up to hundreds of lines.
  public var description: String {
    let shown = text.count > 80 ? text.prefix(80) + "…" : Substring(text)
    let visible = shown.unicodeScalars.map { scalar in
      scalar.value < 0x20 ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
    }.joined()
    return "bad \(kind) '\(visible)'"
  }
}
