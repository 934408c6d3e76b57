import StockroomText

/// The rules for item ids, aliases and matching them.
public enum ItemNames {
  /// The form names are compared in: case folded, so `Banana` finds `banana`.
  public static func key(_ name: String) -> String {
    // Ids and most names are lower-case ASCII already. Checked over the string's own bytes: the
    // UTF-8 view's iterator cost ~30 instructions a byte. Eight at a time, a short name at once
    // (a 12-byte id cost ~150 byte by byte, ~70 so).
    func needsLowering(_ byte: UInt8) -> Bool {
      byte >= 0x80 || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }
    let isLowerASCII =
      name.utf8.withContiguousStorageIfAvailable { bytes in
        EightBytes.allSatisfy(bytes, filler: UInt8(ascii: "a")) {
          EightBytes.isASCII($0) && !EightBytes.hasUpperCase($0)
        }
      }
      ?? !name.utf8.contains(where: needsLowering)
    return isLowerASCII ? name : name.lowercased()
  }

  public static func isValidID(_ id: String) -> Bool {
    guard let first = id.utf8.first, id.utf8.count <= 64, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first) else {
      return false
    }
    return id.utf8.allSatisfy {
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
        || $0 == UInt8(ascii: "_")
    }
  }

  public static let alias = TextField("an alias", characters: 1...64, bytes: 1...256, lines: .one)

  /// Aliases follow the rules for user names: they are written bare in rows and told apart by eye.
  public static func isValidAlias(_ alias: String) -> Bool {
    (try? TextRules.check(alias, as: Self.alias, isName: true)) != nil && !alias.allSatisfy(\.isNumber)
  }

  /// Product ids are `p` and a number; catalogue names may not take that form.
  public static func isProductID(_ name: String) -> Bool {
    let utf8 = name.utf8
    guard utf8.count >= 2, utf8.first == UInt8(ascii: "p") || utf8.first == UInt8(ascii: "P") else { return false }
    return utf8.dropFirst().allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
  }
}
