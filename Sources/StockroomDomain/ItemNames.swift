/// The rules for item ids, aliases and matching them.
public enum ItemNames {
  /// The form names are compared in: case folded, so `Banana` finds `banana`.
  public static func key(_ name: String) -> String {
    var isLowerASCII = true
    for byte in name.utf8 where byte >= 0x80 || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) {
      isLowerASCII = false
      break
    }
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

  /// The closest known name to `word`, for "did you mean": fewest edits, a name the word begins
  /// counting as one edit; ties go to the shorter name, then the alphabetically first, so the
  /// answer never depends on dictionary order.
  public static func suggestion(for word: String, among names: some Sequence<String>) -> String? {
    let target = Array(key(word))
    guard !target.isEmpty else { return nil }
    let limit = max(1, min(3, target.count / 3))
    var best: (name: String, distance: Int, length: Int)? = nil
    for name in names {
      let candidate = Array(key(name))
      var distance: Int
      if target.count >= 3 && candidate.count > target.count && candidate.starts(with: target) {
        distance = 1
      } else {
        guard abs(candidate.count - target.count) <= limit else { continue }
        distance = editDistance(target, candidate)
      }
      guard distance <= limit, distance > 0 || candidate != target else { continue }
      let better =
        best.map { current in
          (distance, candidate.count, name) < (current.distance, current.length, current.name)
        } ?? true
      if better { best = (name, distance, candidate.count) }
    }
    return best?.name
  }

  static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
