import Foundation
import StockroomDomain
import Testing

@Suite("Text rules", .timeLimit(.minutes(30)))
struct TextRulesTests {
  let limits = ShopLimits()

  private func refused(_ text: String, as field: TextField) -> String? {
    do {
      try TextRules.check(text, as: field)
      return nil
    } catch {
      #expect(error.kind == .invalid)
      return error.message
    }
  }

  private func refusedName(_ name: String) -> String? {
    do {
      _ = try TextRules.userName(name)
      return nil
    } catch {
      #expect(error.kind == .invalid)
      return error.message
    }
  }

  private var oneLine: [TextField] { [limits.productName, limits.diaryTitle, limits.orderKey, TextRules.userName] }
  private var multiLine: [TextField] { [limits.productDescription, limits.diaryBody] }

  @Test(
    "control characters (Cc) are refused everywhere but tab and line breaks in multi-line text",
    arguments: ["a\u{0}b", "a\u{7}b", "a\u{1B}[31mb", "a\u{7F}b", "a\u{0B}b", "a\u{0C}b", "a\u{9B}b"])
  func controls(text: String) {
    for field in oneLine + multiLine {
      #expect(refused(text, as: field)?.contains("control character") == true, "\(field.what)")
    }
  }

  @Test(
    "line breaks and tabs: kept in multi-line text, refused on one line",
    arguments: ["\n", "\r", "\t", "\u{85}", "\u{2028}", "\u{2029}"])
  func lineBreaks(separator: String) {
    let text = "one" + separator + "two"
    for field in oneLine { #expect(refused(text, as: field) != nil, "\(field.what)") }
    for field in multiLine { #expect(refused(text, as: field) == nil, "\(field.what)") }
  }

  @Test(
    "format characters (Cf) are refused: zero-width, byte-order mark, soft hyphen, tags",
    arguments: ["a\u{200B}b", "\u{FEFF}ab", "a\u{00AD}b", "a\u{2060}b", "ab\u{E0041}", "a\u{180E}b"])
  func formatCharacters(text: String) {
    for field in oneLine + multiLine {
      #expect(refused(text, as: field)?.contains("invisible format character") == true, "\(field.what)")
    }
  }

  @Test(
    "bidi embeddings, overrides, isolates and marks are refused",
    arguments: [
      "ali\u{202E}ce", "a\u{202A}b", "a\u{202D}b", "\u{2066}ab\u{2069}", "a\u{2067}b", "a\u{2068}b",
      "a\u{200E}b", "a\u{200F}b", "a\u{061C}b",
    ])
  func bidiControls(text: String) {
    for field in oneLine + multiLine {
      #expect(refused(text, as: field)?.contains("bidirectional-text control") == true, "\(field.what)")
    }
  }

  @Test("private-use, unassigned and noncharacter code points are refused")
  func unassignedAndPrivate() {
    let cases: [(String, String)] = [
      ("a\u{E000}", "private-use"), ("a\u{F0000}", "private-use"),
      ("a" + String(Unicode.Scalar(0x0378)!), "unassigned"), ("a" + String(Unicode.Scalar(0xFDD0)!), "noncharacter"),
      ("a" + String(Unicode.Scalar(0xFFFF)!), "noncharacter"),
    ]
    for (text, what) in cases {
      for field in oneLine + multiLine {
        #expect(refused(text, as: field)?.contains(what) == true, "\(field.what): \(what)")
      }
    }
  }

  @Test("combining marks: not first, not alone, not in a run longer than 32 code points per character")
  func combiningMarks() {
    for field in oneLine + multiLine {
      #expect(refused("\u{301}", as: field) != nil, "\(field.what)")
      #expect(refused("\u{301}abc", as: field)?.contains("combining mark") == true, "\(field.what)")
    }
    #expect(refused("e\u{301}", as: limits.productName) == nil)
    #expect(refused("a" + String(repeating: "\u{301}", count: 31), as: limits.productName) == nil)
    #expect(refused("a" + String(repeating: "\u{301}", count: 32), as: limits.productName)?.contains("32") == true)
    #expect(refused("a" + String(repeating: "\u{301}", count: 32), as: limits.diaryBody)?.contains("32") == true)
  }

  @Test("a required field shows at least one visible character; a description may be blank")
  func visible() {
    for text in [" ", "\u{3000}", "\u{3164}", "\u{3164}\u{3164}", "\u{A0}"] {
      #expect(refused(text, as: limits.productName) != nil)
      #expect(refused(text, as: limits.diaryTitle) != nil)
    }
    #expect(refused("", as: limits.productDescription) == nil)
    #expect(refused("", as: limits.productName) != nil)
    #expect(refused("", as: limits.diaryBody) == nil)
  }

  @Test("joiners stay where emoji and scripts need them: right after a visible character")
  func joiners() {
    #expect(refused("family 👨\u{200D}👩\u{200D}👧", as: limits.productName) == nil)
    #expect(refused("❤\u{FE0F}\u{200D}🔥", as: limits.diaryTitle) == nil)
    #expect(refused("می\u{200C}خواهم", as: limits.productName) == nil)
    #expect(refused("\u{200D}abc", as: limits.productName) != nil)
    #expect(refused("a \u{200D}b", as: limits.productName) != nil)
  }

  @Test("every field is bounded in bytes as well as in characters")
  func byteBounds() {
    let heavy = "a" + String(repeating: "\u{301}", count: 32_000)
    for field in oneLine + multiLine {
      #expect(refused(heavy, as: field)?.contains("bytes") == true, "\(field.what)")
    }
    // 100 characters of 4 bytes fit a product name exactly; one byte more does not.
    let emoji = String(repeating: "🍌", count: 100)
    #expect(refused(emoji, as: limits.productName) == nil)
    let heavier = String(repeating: "🍌", count: 99) + "e\u{301}\u{301}"
    #expect(heavier.count == 100 && heavier.utf8.count == 401)
    #expect(refused(heavier, as: limits.productName)?.contains("400 bytes") == true)
    #expect(refused(String(repeating: "가", count: 1_000), as: limits.productDescription) == nil)
    #expect(refused(String(repeating: "가", count: 1_001), as: limits.productDescription) != nil)
    #expect(refused(String(repeating: "x", count: 16_384), as: limits.diaryBody) == nil)
    #expect(refused(String(repeating: "x", count: 16_385), as: limits.diaryBody) != nil)
    #expect(refused(String(repeating: "k", count: 64), as: limits.orderKey) == nil)
    #expect(refused(String(repeating: "k", count: 65), as: limits.orderKey) != nil)
  }

  @Test(
    "user names refuse what hides or imitates another name",
    arguments: [
      "\u{200B}", "alice\u{200B}", "\u{FEFF}", "\u{2066}", "\u{0301}", "ali\u{202E}ce", "al\u{200D}ice",
      "alice\u{FE0F}", "a\u{034F}lice", "\u{3164}", "al ice", "al\u{A0}ice", "a\"b", "a=b", "a,b", "12345", "", "ａｌｉｃｅ",
      "alice１",
    ])
  func userNamesRefused(name: String) {
    #expect(refusedName(name) != nil, "\(name.unicodeScalars.map(\.value))")
  }

  @Test("user names: every script, NFC-normalized, the 32-character and 128-byte bounds")
  func userNamesAccepted() throws {
    #expect(try TextRules.userName("민지") == "민지")
    #expect(try TextRules.userName("alice") == "alice")
    #expect(try TextRules.userName("r2d2") == "r2d2")
    #expect(try TextRules.userName("ㅎㅎ") == "ㅎㅎ", "compatibility jamo are kept, not folded by NFKC")
    #expect(try TextRules.userName("क्\u{200D}ष") == "क्\u{200D}ष", "a joiner after a virama")
    let composed = try TextRules.userName("jose\u{301}")
    #expect(composed.unicodeScalars.map(\.value) == [0x6A, 0x6F, 0x73, 0xE9])
    #expect(try TextRules.userName("\u{1100}\u{1161}").unicodeScalars.map(\.value) == [0xAC00])
    #expect(try TextRules.userName(String(repeating: "x", count: 32)).count == 32)
    #expect(refusedName(String(repeating: "x", count: 33)) != nil)
    #expect(
      refusedName(String(repeating: "a\u{301}\u{302}\u{303}\u{304}", count: 20)) != nil,
      "under 32 characters, over 128 bytes")
  }

  @Test("a fullwidth name is refused with the ASCII name it imitates")
  func fullwidthSuggestion() {
    #expect(refusedName("ａｌｉｃｅ")?.contains("'alice'") == true)
    #expect(refusedName("Ｂｏｂ_７")?.contains("'Bob_7'") == true)
  }

  @Test("catalogue aliases follow the name rules and are bounded in bytes")
  func aliases() {
    #expect(ItemNames.isValidAlias("바나나"))
    #expect(ItemNames.isValidAlias("galbijjim"))
    #expect(!ItemNames.isValidAlias("ba\u{202E}na"))
    #expect(!ItemNames.isValidAlias("a" + String(repeating: "\u{301}", count: 200)))
    #expect(!ItemNames.isValidAlias("12"))
    #expect(!ItemNames.isValidAlias("a,b"))
  }

  @Test("a diary preview is cut to 40 characters and 160 bytes")
  func previewBounded() {
    func entry(_ body: String) -> DiaryEntry {
      DiaryEntry(id: 1, number: 1, owner: "a", title: "t", body: body, created: .distantPast, updated: .distantPast)
    }
    #expect(entry("short\nsecond").preview() == "short")
    #expect(entry(String(repeating: "x", count: 50)).preview() == String(repeating: "x", count: 40) + "…")
    let heavy = String(repeating: "a" + String(repeating: "\u{301}", count: 20), count: 30)
    let preview = entry(heavy).preview()
    #expect(preview.utf8.count <= 160 + "…".utf8.count)
    #expect(preview.hasSuffix("…"))
    #expect(entry("x\u{2028}y").preview() == "x")
  }
}
