import StockroomText

extension ItemCount {
  /// A list of counts as one string, fields split by U+001F and records by U+001E (which item
  /// names cannot contain): how a store keeps them, and what tells one requested order from
  /// another, so that a store can recognise a retry without taking the text apart.
  public static func listText(_ counts: [ItemCount]) -> String {
    var bytes: [UInt8] = []
    appendListText(counts, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// `listText` appended to UTF-8 bytes, for a record written byte by byte.
  public static func appendListText(_ counts: [ItemCount], to bytes: inout [UInt8]) {
    for (index, count) in counts.enumerated() {
      if index > 0 { bytes.append(0x1E) }
      UTF8Bytes.append(count.item, to: &bytes)
      bytes.append(0x1F)
      DecimalText.append(count.count, to: &bytes)
    }
  }
}
