/// An integer's decimal digits appended to UTF-8 bytes: the row texts of a group commit write
/// several numbers an order, and `String(value)` made a string for each to be copied and freed.
public enum DecimalText {
  /// Appends `value` as `String(value)` spells it.
  public static func append(_ value: Int, to bytes: inout [UInt8]) {
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    // The magnitude as unsigned, so that Int.min has one too.
    var rest = value.magnitude
    let start = bytes.count
    repeat {
      bytes.append(UInt8(ascii: "0") + UInt8(rest % 10))
      rest /= 10
    } while rest > 0
    bytes[start...].reverse()
  }
}
