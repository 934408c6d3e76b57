import CStockroomICU

/// What a user name looks like, for telling names apart the way a reader does (Unicode UTS #39):
/// two names with the same key are confusable (`realuser`, `reаluser` with a Cyrillic а,
/// `RealUser`, and `𝐫𝐞𝐚𝐥𝐮𝐬𝐞𝐫` in mathematical bold). The key is ICU's skeleton of the name's NFKC
/// case fold: never shown, only compared.
public struct LookalikeKey: Hashable, Sendable {
  private let skeleton: String

  /// ICU's checker, made once; ICU allows checks and skeletons from many threads on a checker
  /// that is never changed, and this one never is.
  private nonisolated(unsafe) static let checker = sr_icu_open_checker()

  /// Nil when ICU cannot make one (a name far past the length rules).
  public init?(_ name: String) {
    guard let checker = Self.checker else { return nil }
    var out = [CChar](repeating: 0, count: 4096)
    let length = name.withCString { sr_icu_lookalike_key(checker, $0, Int32(name.utf8.count), &out, Int32(out.count)) }
    guard length >= 0 else { return nil }
    skeleton = String(decoding: out[..<Int(length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
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
