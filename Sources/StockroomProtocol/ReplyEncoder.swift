import StockroomText

/// Appends reply lines to a byte buffer, quoting values as Protocol.md requires.
///
/// Rows are written field by field so a busy server never builds intermediate strings or arrays.
public struct ReplyEncoder: Sendable {
  public var bytes: [UInt8]

  public init(capacity: Int = 256) {
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  /// Starts a data line: `* id`.
  public mutating func beginRow(_ id: String? = nil) {
    bytes.append(UInt8(ascii: "*"))
    if let id {
      bytes.append(UInt8(ascii: " "))
      appendWord(id, isValue: false)
    }
  }

  /// Starts an event line: `! kind`.
  public mutating func beginEvent(_ kind: String) {
    bytes.append(UInt8(ascii: "!"))
    bytes.append(UInt8(ascii: " "))
    appendWord(kind, isValue: false)
  }

  public mutating func field(_ key: StaticString, _ value: String) {
    beginField(key)
    appendWord(value, isValue: true)
  }

  public mutating func field(_ key: StaticString, _ value: Int) {
    beginField(key)
    appendInteger(value)
  }

  public mutating func field(_ key: StaticString, _ value: Bool) {
    field(key, value ? "yes" : "no")
  }

  /// A field whose key is known only at run time (a counter's name, `ok(fields:)`'s pairs); the
  /// key must be a bare word.
  public mutating func field(named key: String, _ value: String) {
    beginField(named: key)
    appendWord(value, isValue: true)
  }

  /// A number under a key known only at run time.
  public mutating func field(named key: String, _ value: Int) {
    beginField(named: key)
    appendInteger(value)
  }

  /// ` key=`. Keys are literals in the source: their bytes are copied as they are, without the
  /// checks and retains a `String`'s UTF-8 view costs (~120 instructions a key).
  @inline(__always) private mutating func beginField(_ key: StaticString) {
    bytes.append(UInt8(ascii: " "))
    appendStatic(key)
    bytes.append(UInt8(ascii: "="))
  }

  @inline(__always) private mutating func beginField(named key: String) {
    bytes.append(UInt8(ascii: " "))
    appendUTF8(key)
    bytes.append(UInt8(ascii: "="))
  }

  public mutating func endLine() {
    bytes.append(UInt8(ascii: "\n"))
  }

  public mutating func ok(_ text: String = "") {
    bytes.append(UInt8(ascii: "O"))
    bytes.append(UInt8(ascii: "K"))
    if !text.isEmpty {
      bytes.append(UInt8(ascii: " "))
      appendSingleLine(text)
    }
    endLine()
  }

  /// `OK 3 items`: a count and what it counts, written without building the text first.
  public mutating func ok(count: Int, _ noun: StaticString) {
    bytes.append(UInt8(ascii: "O"))
    bytes.append(UInt8(ascii: "K"))
    bytes.append(UInt8(ascii: " "))
    appendInteger(count)
    bytes.append(UInt8(ascii: " "))
    appendStatic(noun)
    endLine()
  }

  /// `OK text key=value ...`: a summary word a person reads, then fields a script reads.
  public mutating func ok(_ text: String, fields: [(String, String)]) {
    bytes.append(UInt8(ascii: "O"))
    bytes.append(UInt8(ascii: "K"))
    bytes.append(UInt8(ascii: " "))
    appendSingleLine(text)
    for (key, value) in fields { field(named: key, value) }
    endLine()
  }

  /// `OK key=123`: one number a script reads, without an array of fields or a string of it.
  public mutating func ok(field key: StaticString, _ value: Int) {
    bytes.append(UInt8(ascii: "O"))
    bytes.append(UInt8(ascii: "K"))
    field(key, value)
    endLine()
  }

  /// `OK key=value ...`, for replies whose summary a script may want to read.
  public mutating func ok(fields: [(String, String)]) {
    bytes.append(UInt8(ascii: "O"))
    bytes.append(UInt8(ascii: "K"))
    for (key, value) in fields { field(named: key, value) }
    endLine()
  }

  public mutating func error(_ error: ProtocolError) {
    appendUTF8("ERR ")
    appendUTF8(error.code.rawValue)
    bytes.append(UInt8(ascii: " "))
    appendSingleLine(error.message)
    endLine()
  }

  /// A literal's UTF-8 bytes as they are.
  @inline(__always) mutating func appendStatic(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  /// A string's UTF-8 bytes as they are (`UTF8Bytes`).
  @inline(__always) mutating func appendUTF8(_ text: String) {
    UTF8Bytes.append(text, to: &bytes)
  }

  private mutating func appendWord(_ text: String, isValue: Bool) {
    // The usual word is bare: checked and copied in one visit to the string's own bytes.
    let copied: Bool? = text.utf8.withContiguousStorageIfAvailable { utf8 in
      guard !utf8.isEmpty, !Quoting.needsQuotes(utf8, isValue: isValue) else { return false }
      bytes.append(contentsOf: utf8)
      return true
    }
    if copied == true { return }
    if Quoting.needsQuotes(text, isValue: isValue) {
      var quoted = ""
      Quoting.append(text, isValue: isValue, to: &quoted)
      bytes.append(contentsOf: quoted.utf8)
    } else {
      bytes.append(contentsOf: text.utf8)
    }
  }

  // Status text is free prose, but a line break in it would end the reply early, for some
  // clients already at U+2028, so whatever a quoted word would escape becomes a space.
  private mutating func appendSingleLine(_ text: String) {
    let done: Void? = text.utf8.withContiguousStorageIfAvailable { appendSingleLine($0) }
    if done == nil { Array(text.utf8).withUnsafeBufferPointer { appendSingleLine($0) } }
  }

  /// Copies `text` a run at a time between the characters that must not appear raw, each of
  /// which becomes a space; printable ASCII is never one, and is passed over without a look.
  private mutating func appendSingleLine(_ text: UnsafeBufferPointer<UInt8>) {
    var index = 0
    var runStart = 0
    while index < text.count {
      let byte = text[index]
      if byte >= 0x20 && byte < 0x7F {
        index += 1
      } else if let length = Quoting.escapedLength(at: index, in: text) {
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart..<index]))
        bytes.append(UInt8(ascii: " "))
        index += length
        runStart = index
      } else {
        index += 1
      }
    }
    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart..<index]))
  }

  private mutating func appendInteger(_ value: Int) {
    DecimalText.append(value, to: &bytes)
  }
}
