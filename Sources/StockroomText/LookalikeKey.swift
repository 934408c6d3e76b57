import CStockroomICU

/// One look of a user name, for telling names apart the way a reader does (Unicode UTS #39): a
/// UTS #39 skeleton, never shown, only compared. A name has a few looks (`looks(of:)`): the
/// skeletons of the name as typed, of its case fold, of its upper case, and the case fold of its
/// skeleton; two names look alike when they share one. So `realuser` is alike `reаluser` (a
/// Cyrillic а), `RealUser`, `𝐫𝐞𝐚𝐥𝐮𝐬𝐞𝐫` (mathematical bold), `reaIuser` (a capital I), `ʀealuser`
/// (a small capital R), and `tom` is alike all-capital Greek `ΤΟΜ` and Cyrillic `ТОМ`: case folding
/// alone, before the skeleton, hides the capital I, and turns `ΤΟΜ` into Greek `τομ`.
public struct LookalikeKey: Hashable, Sendable {
  private let skeleton: String

  /// ICU's checker, made once; ICU allows checks and skeletons from many threads on a checker
  /// that is never changed, and this one never is.
  private nonisolated(unsafe) static let checker = sr_icu_open_checker()

  /// The forms whose skeletons are a name's looks (StockroomICU.h says what each catches).
  private static let forms = [SR_ICU_AS_TYPED, SR_ICU_CASE_FOLDED, SR_ICU_UPPER_CASED, SR_ICU_LOOK_FOLDED]

  private init(skeleton: String) {
    self.skeleton = skeleton
  }

  /// The skeleton of one form of `name`; nil when ICU cannot make one (a name far past the
  /// length rules).
  private static func skeleton(_ name: String, form: Int32) -> String? {
    guard let checker else { return nil }
    var out = [CChar](repeating: 0, count: 4096)
    let length = name.withCString {
      sr_icu_skeleton(checker, $0, Int32(name.utf8.count), form, &out, Int32(out.count))
    }
    guard length >= 0 else { return nil }
    return String(decoding: out[..<Int(length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The looks of `name`, each once, in a fixed order; nil when ICU cannot make them.
  public static func looks(of name: String) -> [LookalikeKey]? {
    var looks: [LookalikeKey] = []
    for form in forms {
      guard let skeleton = skeleton(name, form: Int32(form)) else { return nil }
      let look = LookalikeKey(skeleton: skeleton)
      if !looks.contains(look) { looks.append(look) }
    }
    return looks
  }

  /// What a new name is checked with against the looks of the names there are: its own looks,
  /// and, for a name written with no Latin letter that looks Latin but for one letter the
  /// confusables data does not know (Cherokee `ᎪᎠᎷᎥᏁ` looks like `ADMi` and Cherokee NE), that
  /// look with each Latin letter and digit in place of the unknown one: it passes for `admin`.
  /// Nil when ICU cannot make them.
  public static func probes(of name: String) -> [LookalikeKey]? {
    guard var probes = looks(of: name) else { return nil }
    guard !name.unicodeScalars.contains(where: { Self.script($0) == SR_ICU_LATIN }),
      let look = skeleton(name, form: Int32(SR_ICU_LOOK_FOLDED))
    else { return probes }
    let scalars = Array(look.unicodeScalars)
    let foreign = scalars.indices.filter { script(scalars[$0]) == SR_ICU_OTHER_SCRIPT }
    // Four letters at least, so that the three others make it read as a Latin name.
    guard foreign.count == 1, scalars.count >= 4, let at = foreign.first else { return probes }
    for letter in latinLooks {
      var text = String.UnicodeScalarView(scalars[..<at])
      text.append(contentsOf: letter.unicodeScalars)
      text.append(contentsOf: scalars[(at + 1)...])
      let probe = LookalikeKey(skeleton: String(text))
      if !probes.contains(probe) { probes.append(probe) }
    }
    return probes
  }

  private static func script(_ scalar: Unicode.Scalar) -> Int { Int(sr_icu_script_kind(scalar.value)) }

  /// The looks of the Latin letters and digits (`m` looks like `rn`, `0` like `O`).
  private static let latinLooks: [String] = "abcdefghijklmnopqrstuvwxyz0123456789".compactMap {
    skeleton(String($0), form: Int32(SR_ICU_LOOK_FOLDED))
  }

  /// Whether a new name `name` looks like the existing name `existing` (and is not the same name).
  public static func looksLike(_ name: String, _ existing: String) -> Bool {
    guard name != existing, let probes = probes(of: name), let looks = looks(of: existing) else { return false }
    return probes.contains(where: looks.contains)
  }

  /// Whether `name` keeps to UTS #39's highly restrictive level: one script, or Latin with Han and
  /// Japanese kana, with Han and Bopomofo, or with Han and Hangul (`민지kim` passes, `аdmin`
  /// mixing Cyrillic and Latin does not). Nil when ICU cannot tell.
  public static func keepsToOneScript(_ name: String) -> Bool? {
    guard let checker else { return nil }
    let result = name.withCString { sr_icu_single_script(checker, $0, Int32(name.utf8.count)) }
    return result < 0 ? nil : result == 1
  }
}
