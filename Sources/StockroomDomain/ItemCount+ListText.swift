extension ItemCount {
  /// A list of counts as one string, fields split by U+001F and records by U+001E (which item
  /// names cannot contain): how a store keeps them, and what tells one requested order from
  /// another, so that a store can recognise a retry without taking the text apart.
  public static func listText(_ counts: [ItemCount]) -> String {
    var text = ""
    text.reserveCapacity(counts.count * 16)
    for (index, count) in counts.enumerated() {
      if index > 0 { text.append("\u{1E}") }
      text += count.item
      text.append("\u{1F}")
      text += String(count.count)
    }
    return text
  }
}
