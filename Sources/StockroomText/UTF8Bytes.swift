/// Appending a string's UTF-8 to a byte buffer, which every reply, commit record and row text
/// does many times a request. `append(contentsOf: text.utf8)` takes the generic sequence path,
/// about 170 instructions even for an 8-byte word; the string's own contiguous bytes are copied
/// in one piece for about half that (callgrind, issue 46).
public enum UTF8Bytes {
  @inline(__always)
  public static func append(_ text: String, to bytes: inout [UInt8]) {
    let copied: Void? = text.utf8.withContiguousStorageIfAvailable { bytes.append(contentsOf: $0) }
    if copied == nil { bytes.append(contentsOf: text.utf8) }
  }
}
