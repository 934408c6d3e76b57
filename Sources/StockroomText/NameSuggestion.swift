/// "Did you mean": the closest known name to a mistyped word.
///
/// Kept here, below both the server's domain and the client, so the REPL's local HELP and the
/// server suggest the same name for the same typo.
public enum NameSuggestion {
  /// The closest of `names` to `word`: fewest edits, a name the word begins counting as one
  /// edit; ties go to the shorter name, then the alphabetically first, so the answer never
  /// depends on the order of `names`. Case is folded (`ordr` finds `ORDER`).
  public static func closest(to word: String, among names: some Sequence<String>) -> String? {
    let target = Array(folded(word))
    guard !target.isEmpty else { return nil }
    let limit = max(1, min(3, target.count / 3))
    var best: (name: String, distance: Int, length: Int)? = nil
    for name in names {
      let candidate = Array(folded(name))
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

  /// `; did you mean 'ORDER'?`: how every "unknown ..." message offers `guess`, quoted as the
  /// word it stands for is quoted. `prefix` goes before the name (a group's `@`).
  public static func didYouMean(_ guess: String, prefix: String = "") -> String {
    "; did you mean \(Echo.quoted(prefix + guess))?"
  }

  /// `didYouMean` for the closest of `names` to `word`; empty when none is close.
  public static func didYouMean(_ word: String, among names: some Sequence<String>, prefix: String = "") -> String {
    closest(to: word, among: names).map { didYouMean($0, prefix: prefix) } ?? ""
  }

  /// Names are mostly lower-case ASCII ids; those skip `lowercased()`, which allocates.
  private static func folded(_ name: String) -> String {
    for byte in name.utf8 where byte >= 0x80 || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) {
      return name.lowercased()
    }
    return name
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
