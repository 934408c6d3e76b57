/// An integer's decimal digits appended to UTF-8 bytes, as `String(value)` spells them, without
/// making that string: replies write a number in most fields, and the row texts of a group
/// commit several an order. Inlinable, so the reply encoder's hot path keeps it inline.
public enum DecimalText {
  /// Appends `value` as `String(value)` spells it.
  @inlinable public static func append(_ value: Int, to bytes: inout [UInt8]) {
    // A quantity is nearly always one digit: that is one byte appended, where the scratch
    // space below and its copy cost ~100 instructions (an ORDER's reply has two).
    if value >= 0 && value < 10 {
      bytes.append(digit(value))
      return
    }
    // Up to four digits (a shop's levels, a page's counts) one byte at a time: ~15 instructions
    // a byte, where the scratch space and its copy cost ~190 whatever the length.
    if value >= 10 && value < 10_000 {
      if value >= 1000 { bytes.append(digit(value / 1000)) }
      if value >= 100 { bytes.append(digit(value / 100 % 10)) }
      bytes.append(digit(value / 10 % 10))
      bytes.append(digit(value % 10))
      return
    }
    // The magnitude as unsigned, so that Int.min has one too.
    var magnitude = value.magnitude
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    var digits:
      (
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
      ) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    // Written from the end of the scratch space, then appended in one piece: a byte at a time
    // cost a uniqueness and capacity check each, and a stock level has ten digits.
    withUnsafeMutableBytes(of: &digits) { raw in
      let buffer = raw.bindMemory(to: UInt8.self)
      var start = buffer.count
      while magnitude > 0 {
        start -= 1
        buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start...]))
    }
  }

  /// The ASCII digit for `value`, from 0 to 9.
  @inlinable static func digit(_ value: Int) -> UInt8 {
    UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value)
  }
}
