/// Bytes as lower-case hex text and back: how a bytea value travels to and from PostgreSQL in
/// the text format that `PostgresConnection` speaks (`decode($1, 'hex')`, `encode(c, 'hex')`),
/// whatever the server's `bytea_output`.
enum HexBytes {
  private static let digits = Array("0123456789abcdef".utf8)

  static func text(_ bytes: [UInt8]) -> String {
    var hex: [UInt8] = []
    hex.reserveCapacity(2 * bytes.count)
    for byte in bytes {
      hex.append(digits[Int(byte >> 4)])
      hex.append(digits[Int(byte & 0x0f)])
    }
    return String(decoding: hex, as: UTF8.self)
  }

  /// The bytes of `text`; nil when it is not an even number of hex digits.
  static func bytes(_ text: String) -> [UInt8]? {
    let hex = Array(text.utf8)
    guard hex.count % 2 == 0 else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(hex.count / 2)
    var index = 0
    while index < hex.count {
      guard let high = value(hex[index]), let low = value(hex[index + 1]) else { return nil }
      bytes.append(high << 4 | low)
      index += 2
    }
    return bytes
  }

  private static func value(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
