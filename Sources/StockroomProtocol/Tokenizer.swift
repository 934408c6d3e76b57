import StockroomText

/// Splits one line (without its LF) into words.
///
/// The grammar is in Protocol.md: words are separated by spaces or tabs; a word is a run of bare
/// characters and double-quoted parts, so `name="Red apple"` is one word. Inside quotes the
/// escapes `\"` `\\` `\n` `\r` `\t` and `\u{H…}` are understood. Control characters must be
/// escaped. The same rules read requests on the server and data lines on the client.
public enum Tokenizer {
  public static func words(in line: String) throws(ProtocolError) -> [Word] {
    var utf8 = Array(line.utf8)
    return try utf8.withUnsafeMutableBufferPointer { buffer throws(ProtocolError) in
      try words(in: UnsafeBufferPointer(buffer))
    }
  }

  public static func words(in line: ArraySlice<UInt8>) throws(ProtocolError) -> [Word] {
    try line.withUnsafeBufferPointer { buffer throws(ProtocolError) in try words(in: buffer) }
  }

  public static func words(in bytes: UnsafeBufferPointer<UInt8>) throws(ProtocolError) -> [Word] {
    var words: [Word] = []
    words.reserveCapacity(4)
    try self.words(in: bytes, into: &words)
    return words
  }

  /// The words of `line`, in `words` (emptied first, its capacity kept): a server that hands in
  /// the same array for every request makes no new one per line.
  public static func words(in line: ArraySlice<UInt8>, into words: inout [Word]) throws(ProtocolError) {
    // `removeAll(keepingCapacity:)` runs the general `replaceSubrange` (~200 instructions even
    // for a request's two words); dropping the last word is a count and a release each.
    while !words.isEmpty { words.removeLast() }
    try line.withUnsafeBufferPointer { buffer throws(ProtocolError) in try self.words(in: buffer, into: &words) }
  }

  private static func words(in bytes: UnsafeBufferPointer<UInt8>, into words: inout [Word]) throws(ProtocolError) {
    if let bad = firstInvalidUTF8Offset(bytes) {
      throw ProtocolError(.syntax, "invalid UTF-8 at byte \(bad + 1)")
    }
    var index = 0
    let count = bytes.count
    while index < count {
      let byte = bytes[index]
      if byte == space || byte == tab {
        index += 1
        continue
      }
      words.append(try word(in: bytes, from: &index))
    }
  }

  // Reads one word starting at `index`; leaves `index` on the separator after it. Most words
  // have no quotes and are read straight from the line; only a quoted word builds its text.
  private static func word(
    in bytes: UnsafeBufferPointer<UInt8>, from index: inout Int
  ) throws(ProtocolError) -> Word {
    let start = index
    let count = bytes.count
    // Most words are bare, with no quote, `=` or control character: passed over in one tight run,
    // and when the word ends there it is made at once. Otherwise the loop below goes on from
    // where this stopped (what it passed needs none of its work).
    while index < count {
      let byte = bytes[index]
      guard byte > space && byte != 0x7F && byte != quote && byte != equals else { break }
      index += 1
    }
    if index == count || bytes[index] == space || bytes[index] == tab {
      return Word(text(UnsafeBufferPointer(rebasing: bytes[start..<index])))
    }
    var unquoted: [UInt8]? = nil
    var keyLength: Int? = nil
    while index < count {
      let byte = bytes[index]
      if byte == space || byte == tab { break }
      if byte == quote {
        if unquoted == nil { unquoted = Array(bytes[start..<index]) }
        index += 1
        try quoted(in: bytes, from: &index, into: &unquoted!)
        continue
      }
      if byte < 0x20 || byte == 0x7F {
        throw ProtocolError(
          .syntax, "control character 0x\(String(byte, radix: 16)) at byte \(index + 1); quote and escape it")
      }
      if byte == equals && keyLength == nil && unquoted == nil
        && isIdentifier(UnsafeBufferPointer(rebasing: bytes[start..<index]))
      {
        keyLength = index - start
      }
      unquoted?.append(byte)
      index += 1
    }
    let text = unquoted.map { String(decoding: $0, as: UTF8.self) }
    guard let keyLength else {
      return Word(text ?? self.text(UnsafeBufferPointer(rebasing: bytes[start..<index])))
    }
    // The key is bare, so it is the same in the line and in the text.
    let key = self.text(UnsafeBufferPointer(rebasing: bytes[start..<(start + keyLength)]))
    if let unquoted {
      return Word(key: key, value: String(decoding: unquoted[(keyLength + 1)...], as: UTF8.self), text: text)
    }
    return Word(
      key: key, value: self.text(UnsafeBufferPointer(rebasing: bytes[(start + keyLength + 1)..<index])),
      text: self.text(UnsafeBufferPointer(rebasing: bytes[start..<index])))
  }

  /// A bare word's text, made in place: `String(decoding:as:)` looks at the bytes twice (ASCII,
  /// then UTF-8) before copying them, where a string of up to 15 bytes made in place is a small
  /// string, known to be ASCII from one test of its bits (~60 instructions a word). Anything else
  /// is checked as `String(decoding:as:)` checks it; the line was checked to be UTF-8 already.
  private static func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    String(unsafeUninitializedCapacity: bytes.count) { storage in
      _ = storage.initialize(fromContentsOf: bytes)
      return bytes.count
    }
  }

  private static func quoted(
    in bytes: UnsafeBufferPointer<UInt8>, from index: inout Int, into text: inout [UInt8]
  ) throws(ProtocolError) {
    let opening = index
    let count = bytes.count
    while index < count {
      let byte = bytes[index]
      switch byte {
      case quote:
        index += 1
        return
      case backslash:
        index += 1
        guard index < count else { break }
        let escape = bytes[index]
        index += 1
        switch escape {
        case quote: text.append(quote)
        case backslash: text.append(backslash)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(tab)
        case UInt8(ascii: "u"): try unicodeEscape(in: bytes, from: &index, into: &text)
        default:
          throw ProtocolError(
            .syntax,
            "unknown escape \\\(Character(Unicode.Scalar(escape))) at byte \(index - 1); use \\\" \\\\ \\n \\r \\t or \\u{...}"
          )
        }
      case tab:
        text.append(byte)
        index += 1
      default:
        if byte < 0x20 || byte == 0x7F {
          throw ProtocolError(
            .syntax, "control character 0x\(String(byte, radix: 16)) at byte \(index + 1); escape it")
        }
        text.append(byte)
        index += 1
      }
    }
    throw ProtocolError(.syntax, "unbalanced quote: the quote at byte \(opening) is never closed")
  }

  private static func unicodeEscape(
    in bytes: UnsafeBufferPointer<UInt8>, from index: inout Int, into text: inout [UInt8]
  ) throws(ProtocolError) {
    let start = index - 2
    guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else {
      throw ProtocolError(.syntax, "bad escape at byte \(start + 1): write \\u{...} with 1 to 6 hex digits")
    }
    index += 1
    var value: UInt32 = 0
    var digits = 0
    while index < bytes.count, bytes[index] != UInt8(ascii: "}") {
      guard let digit = hexValue(bytes[index]), digits < 6 else {
        throw ProtocolError(.syntax, "bad escape at byte \(start + 1): write \\u{...} with 1 to 6 hex digits")
      }
      value = value * 16 + digit
      digits += 1
      index += 1
    }
    guard index < bytes.count, digits > 0, let scalar = Unicode.Scalar(value), value != 0 else {
      throw ProtocolError(.syntax, "bad escape at byte \(start + 1): not a Unicode scalar value")
    }
    index += 1
    text.append(contentsOf: String(Character(scalar)).utf8)
  }

  private static func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }

  static func isIdentifier(_ bytes: some Collection<UInt8>) -> Bool {
    guard let first = bytes.first, isIdentifierHead(first) else { return false }
    return bytes.allSatisfy { isIdentifierHead($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
  }

  static func isIdentifierHead(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
      || byte == UInt8(ascii: "_")
  }

  /// The offset of the first byte that is not part of well-formed UTF-8, or nil.
  public static func firstInvalidUTF8Offset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    // Nearly every request is ASCII: checked eight bytes at a time, a line of a dozen bytes costs
    // ~20 instructions, where the loop below spends several a byte (~110 for `STOCK banana`). A
    // shorter line (`PING`) is left to the loop, which is cheaper there than one padded word
    // (measured: 7 to 21 instructions a PING).
    if bytes.count >= 8, EightBytes.allASCII(bytes) { return nil }
    var index = 0
    let count = bytes.count
    while index < count {
      let lead = bytes[index]
      if lead < 0x80 {
        index += 1
        continue
      }
      let length: Int
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0:
        length = 3
        low = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED:
        length = 3
        high = 0x9F
      case 0xF0:
        length = 4
        low = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4:
        length = 4
        high = 0x8F
      default: return index
      }
      guard index + length <= count else { return index }
      let second = bytes[index + 1]
      guard second >= low && second <= high else { return index }
      for offset in 2..<max(2, length) where bytes[index + offset] & 0xC0 != 0x80 {
        return index
      }
      index += length
    }
    return nil
  }
}

private let space = UInt8(ascii: " ")
private let tab = UInt8(ascii: "\t")
private let quote = UInt8(ascii: "\"")
private let backslash = UInt8(ascii: "\\")
private let equals = UInt8(ascii: "=")
