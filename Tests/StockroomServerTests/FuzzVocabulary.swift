import StockroomProtocol

/// The words a fuzzed request is made of: the shop's real names (read from `NAMES` on a fresh
/// server, so they follow the catalogue) and the values that sit on or just past every
/// documented limit.
struct FuzzVocabulary: Sendable {
  /// Fruits, juices and dishes, by id and by alias.
  var items: [String] = []
  var sections: [String] = []
  var exhibits: [String] = []

  init(names: Reply) {
    for row in names.rows {
      let words = [row.id ?? ""] + (row["aliases"]?.split(separator: ",").map(String.init) ?? [])
      switch row["kind"] {
      case "section": sections += words
      case "exhibit": exhibits += words
      default: items += words
      }
    }
  }

  /// Product ids the run is likely to have created, and a few it cannot have.
  static let productIDs = (1...60).map { "p\($0)" } + ["P3", "p0", "p-1", "p", "p01", "p99999999999999999999", "q1"]

  static let categories = [
    "fruits", "juices", "sections", "dishes", "products", "exhibits", "diary", "orders", "fruit", "juice", "section",
    "dish", "product", "exhibit", "order", "FRUITS", "frutis", "",
  ]

  /// The accounts the fuzzer makes before it starts and its connections log in to, with every
  /// role. None is among `users`, which the generated requests name: their failed LOGINs would
  /// otherwise slow these names down until most connections fuzzed as guests.
  static let accounts: [(name: String, role: Role)] = [
    ("fuzz-customer", .customer), ("fuzz-staff", .staff), ("퍼즈", .customer), ("fuzz-admin", .admin),
    ("f", .customer), (String(repeating: "z", count: 32), .staff),
  ]

  static let users = ["alice", "bob", "민지", "carol", "guest", "a", String(repeating: "u", count: 32)]

  /// Names for HELLO and products that the issue found slipping through: invisible, bidi,
  /// look-alike and combining-only text, and names on the length limits.
  static let oddNames = [
    "\u{200B}", "alice\u{200B}", "ａｌｉｃｅ", "\u{FEFF}", "\u{2066}", "\u{0301}", "ali\u{202E}ce",
    "a" + String(repeating: "\u{0301}", count: 300), String(repeating: "u", count: 33), "12345", "a=b", "a\"b",
    "e\u{0301}", "é", "👩‍👩‍👧‍👦", "ㄱㅏ", "\u{E000}", "\u{10FFFF}", "\u{FFFD}", "line\u{2028}break",
    "para\u{2029}graph", "next\u{0085}line",
  ]

  /// Whole numbers on and around every documented bound, and things that only look like numbers.
  static let numbers = [
    "0", "-0", "+0", "1", "-1", "+1", "2", "3", "5", "100", "101", "1000000", "1000001", "999999999", "1000000000",
    "1000000001", "-1000000000", "-1000000001", "2147483647", "2147483648", "-2147483649", "4294967296",
    "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
    "18446744073709551616", "99999999999999999999999999", "1.5", "1e3", "0x10", "+-3", "--1", "1_000", "１", "٣",
    "0001", "NaN", "", String(repeating: "9", count: 400),
  ]

  static let money = [
    "0", "1", "900", "1200", "24.50", "12.5", "12.505", ".5", "5.", "10000000000", "10000000001", "999999999999",
    "1000000000000", "-5", "1,000", "1e3", "inf",
  ]

  static let currencies = ["KRW", "USD", "usd", "EUR", "", "ＵＳＤ"]

  static let discounts = [
    "10%", "0%", "1%", "99%", "100%", "-5%", "none", "NONE", "800", "0", "+10%", "10.5%", "%", "",
  ]

  /// One-line texts with every kind of character a text field may or may not take.
  static let texts = [
    "Market day", "딸기를 샀다\n비싸다", "Sold out by noon.", "", " ", "tab\there", "quote \" inside", "back\\slash",
    "ali\u{202E}ce", "line\u{2028}sep", "para\u{2029}sep", "nel\u{0085}x", "zero\u{200B}width", "\u{FEFF}bom",
    "e\u{0301}\u{0302}\u{0303}", "🍓🍌", "\u{1F600}", "a=b=c", "null\u{0}byte", "bell\u{7}", "esc\u{1B}[31m",
  ]

  /// Characters that are legal UTF-8 but odd: inserted anywhere into a request.
  static let oddCharacters = [
    "\u{0301}", "\u{202E}", "\u{202D}", "\u{2066}", "\u{2069}", "\u{2028}", "\u{2029}", "\u{0085}", "\u{FEFF}",
    "\u{200B}", "\u{200D}", "\u{00A0}", "\u{3000}", "ｘ", "\u{1F600}", "\u{E000}", "\u{10FFFF}", "\u{FFFD}", "ß",
    "İ", "ﬁ",
  ]

  /// Byte runs that are not UTF-8: a bad continuation, a stray byte, an overlong form, an encoded
  /// surrogate, a code point past U+10FFFF, a sequence cut short.
  static let invalidUTF8: [[UInt8]] = [
    [0xC3, 0x28], [0xFF], [0xFE], [0x80], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80],
    [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0xF0, 0x9F, 0x98],
  ]

  /// Control bytes other than LF (which would end the line where the model does not expect).
  static let controls: [UInt8] = [0x00, 0x01, 0x07, 0x08, 0x09, 0x0B, 0x0C, 0x0D, 0x1B, 0x7F]

  /// Escapes inside quotes: good ones and every documented way of getting one wrong.
  static let escapes = [
    "\\n", "\\t", "\\r", "\\\"", "\\\\", "\\u{41}", "\\u{1F600}", "\\u{}", "\\u{0}", "\\u{D800}", "\\u{110000}",
    "\\u{1234567}", "\\u{zz}", "\\u41", "\\q", "\\N", "\\", "\\u{202E}", "\\u{2028}",
  ]

  /// Lines of other protocols that Protocol.md will have the server close the connection on.
  static let crossProtocol: [[UInt8]] = [
    Array("GET / HTTP/1.1".utf8), Array("POST / HTTP/1.1\r".utf8), Array("PUT /shop HTTP/1.0".utf8),
    Array("Host: 127.0.0.1:7878".utf8), Array("*1\r".utf8), Array("*3".utf8),
    [0x16, 0x03, 0x01, 0x00, 0xA5, 0x01, 0x00, 0x00, 0xA1, 0x03, 0x03],
  ]
}
