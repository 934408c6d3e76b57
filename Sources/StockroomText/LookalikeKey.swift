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

  /// The looks of `name`, each once, in a fixed order; nil when ICU cannot make them. A name that
  /// looks Latin but for one letter (`nearlyLatin`) has one more: that look with a mark in place
  /// of the letter, which a later Latin name's probes find.
  public static func looks(of name: String) -> [LookalikeKey]? {
    var looks: [LookalikeKey] = []
    for form in forms {
      guard let skeleton = skeleton(name, form: Int32(form)) else { return nil }
      let look = LookalikeKey(skeleton: skeleton)
      if !looks.contains(look) { looks.append(look) }
    }
    if let (scalars, at) = nearlyLatin(name) { looks.append(LookalikeKey(scalars, replacing: at..<at + 1, with: mark)) }
    return looks
  }

  /// What a new name is checked with against the looks of the names there are: its own looks;
  /// its case-folded look with a mark in place of each letter, which finds a name that looks
  /// Latin but for that letter (`admin`, made after Cherokee `ᎪᎠᎷᎥᏁ`); and for a name that is such
  /// a name itself, its look with each Latin letter and digit in place of the unknown one, which
  /// finds the Latin names it passes for. Nil when ICU cannot make them.
  public static func probes(of name: String) -> [LookalikeKey]? {
    guard var probes = looks(of: name), let look = skeleton(name, form: Int32(SR_ICU_LOOK_FOLDED)) else { return nil }
    func add(_ probe: LookalikeKey) { if !probes.contains(probe) { probes.append(probe) } }
    let scalars = Array(look.unicodeScalars)
    for at in scalars.indices {
      add(LookalikeKey(scalars, replacing: at..<at + 1, with: mark))
      // `m` looks like `rn`: two scalars for one letter.
      if at + 1 < scalars.count && scalars[at] == "r" && scalars[at + 1] == "n" {
        add(LookalikeKey(scalars, replacing: at..<at + 2, with: mark))
      }
    }
    guard let (foreign, at) = nearlyLatin(name) else { return probes }
    for letter in latinLooks { add(LookalikeKey(foreign, replacing: at..<at + 1, with: letter)) }
    return probes
  }

  /// Stands for one unknown letter in a look; never in a skeleton (a noncharacter).
  private static let mark = "\u{FFFF}"

  private init(_ scalars: [Unicode.Scalar], replacing range: Range<Int>, with text: String) {
    var view = String.UnicodeScalarView(scalars[..<range.lowerBound])
    view.append(contentsOf: text.unicodeScalars)
    view.append(contentsOf: scalars[range.upperBound...])
    skeleton = String(view)
  }

  /// For a name with no Latin letter whose case-folded look is Latin but for one letter the
  /// confusables data does not know (Cherokee `ᎪᎠᎷᎥᏁ` looks like `ADMi` and Cherokee NE), and
  /// has four letters at least (so that the others make it read as a Latin name): that look, and
  /// where the letter is.
  private static func nearlyLatin(_ name: String) -> ([Unicode.Scalar], Int)? {
    guard !name.unicodeScalars.contains(where: { script($0) == SR_ICU_LATIN }),
      let look = skeleton(name, form: Int32(SR_ICU_LOOK_FOLDED))
    else { return nil }
    let scalars = Array(look.unicodeScalars)
    let foreign = scalars.indices.filter { script(scalars[$0]) == SR_ICU_OTHER_SCRIPT }
    guard foreign.count == 1, scalars.count >= 4, let at = foreign.first else { return nil }
    return (scalars, at)
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
