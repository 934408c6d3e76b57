/// Bytes written as a bash `$'...'` string, exact and copy-pasteable into `printf` and `nc` to
/// replay a failure by hand; long runs are cut with a note of the full length.
enum FuzzText {
  static func describe(_ bytes: some Collection<UInt8>, limit: Int = 200) -> String {
    var out = "$'"
    for byte in bytes.prefix(limit) {
      switch byte {
      case UInt8(ascii: "\\"): out += "\\\\"
      case UInt8(ascii: "'"): out += "\\'"
      case 0x20...0x7E: out.unicodeScalars.append(Unicode.Scalar(byte))
      default: out += "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)
      }
    }
    out += "'"
    return bytes.count > limit ? out + "… (\(bytes.count) bytes)" : out
  }
}
