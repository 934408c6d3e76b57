/// Byte-level facts about one line, found in a single pass over an unsafe buffer: the tests run
/// unoptimized, where generic collection code costs microseconds per byte, and the fuzzer reads
/// every line of many megabytes of replies.
struct LineBytes {
  /// Well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF).
  var isUTF8 = true
  /// A byte 0x00-0x1F or 0x7F.
  var hasControl = false
  /// U+2028, U+2029 or U+0085, which clients that split lines Unicode-style take for line ends.
  var hasUnicodeLineBreak = false

  init(_ line: ArraySlice<UInt8>) {
    line.withUnsafeBufferPointer { bytes in
      var index = 0
      let count = bytes.count
      while index < count {
        let lead = bytes[index]
        if lead < 0x80 {
          if lead < 0x20 || lead == 0x7F { hasControl = true }
          index += 1
          continue
        }
        let length: Int
        var scalar: UInt32
        switch lead {
        case 0xC2...0xDF: (length, scalar) = (2, UInt32(lead & 0x1F))
        case 0xE0...0xEF: (length, scalar) = (3, UInt32(lead & 0x0F))
        case 0xF0...0xF4: (length, scalar) = (4, UInt32(lead & 0x07))
        default:
          isUTF8 = false
          return
        }
        guard index + length <= count else {
          isUTF8 = false
          return
        }
        for offset in 1..<length {
          let next = bytes[index + offset]
          guard next & 0xC0 == 0x80 else {
            isUTF8 = false
            return
          }
          scalar = scalar << 6 | UInt32(next & 0x3F)
        }
        if (length == 3 && scalar < 0x800) || (length == 4 && !(0x10000...0x10FFFF).contains(scalar))
          || (0xD800...0xDFFF).contains(scalar)
        {
          isUTF8 = false
          return
        }
        if scalar == 0x2028 || scalar == 0x2029 || scalar == 0x85 { hasUnicodeLineBreak = true }
        index += length
      }
    }
  }

  /// Whether `line` begins with the ASCII text `prefix`, compared byte for byte.
  static func line(_ line: ArraySlice<UInt8>, startsWith prefix: StaticString) -> Bool {
    guard line.count >= prefix.utf8CodeUnitCount else { return false }
    return line.withUnsafeBufferPointer { bytes in
      let start = prefix.utf8Start
      for offset in 0..<prefix.utf8CodeUnitCount where bytes[offset] != start[offset] { return false }
      return true
    }
  }

  /// Whether `line` contains `needle` (lower-case ASCII), ignoring ASCII case.
  static func line(_ line: ArraySlice<UInt8>, containsIgnoringCase needle: StaticString) -> Bool {
    let width = needle.utf8CodeUnitCount
    guard line.count >= width else { return false }
    return line.withUnsafeBufferPointer { bytes in
      let target = needle.utf8Start
      var start = 0
      while start + width <= bytes.count {
        var offset = 0
        while offset < width
          && bytes[start + offset] | (bytes[start + offset] &- 0x41 < 26 ? 0x20 : 0) == target[offset]
        {
          offset += 1
        }
        if offset == width { return true }
        start += 1
      }
      return false
    }
  }
}
