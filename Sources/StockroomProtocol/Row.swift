/// One data line (`* id key=value ...`) or event line (`! kind key=value ...`), parsed.
public struct Row: Sendable, Equatable {
  /// The leading word when it is not a `key=value` field.
  public var id: String?
  public var fields: [(key: String, value: String)]

  public init(id: String? = nil, fields: [(key: String, value: String)] = []) {
    self.id = id
    self.fields = fields
  }

  public subscript(key: String) -> String? {
    fields.first { $0.key == key }?.value
  }

  /// Parses the text after the `* ` or `! ` marker.
  public init(parsing text: String) throws(ProtocolError) {
    let words = try Tokenizer.words(in: text)
    var fields: [(key: String, value: String)] = []
    var id: String? = nil
    for (index, word) in words.enumerated() {
      if let key = word.key {
        fields.append((key, word.value))
      } else if index == 0 {
        id = word.text
      } else {
        // A stray positional word keeps its place so nothing the server said is lost.
        fields.append(("", word.text))
      }
    }
    self.id = id
    self.fields = fields
  }

  /// The line as it would be written after the marker.
  public var encoded: String {
    var out = ""
    if let id { Quoting.append(id, to: &out) }
    for field in fields {
      if !out.isEmpty { out += " " }
      out += field.key
      out += "="
      Quoting.append(field.value, isValue: true, to: &out)
    }
    return out
  }

  public static func == (lhs: Row, rhs: Row) -> Bool {
    lhs.id == rhs.id && lhs.fields.elementsEqual(rhs.fields) { $0.key == $1.key && $0.value == $1.value }
  }
}
