import StockroomDomain
import StockroomText
import Testing

/// New account names cannot pass for others (Unicode UTS #39, through ICU's spoof checker).
@Suite("Look-alike and mixed-script user names", .timeLimit(.minutes(30)))
struct LookalikeNameTests {
  @Test(
    "names that look like realuser share its key; different names do not",
    arguments: ["realuser", "reаluser", "RealUser", "REALUSER", "𝐫𝐞𝐚𝐥𝐮𝐬𝐞𝐫", "ｒｅａｌｕｓｅｒ"])
  func sameLook(name: String) throws {
    #expect(name == "realuser" || LookalikeKey.looksLike(name, "realuser"))
    #expect(
      try #require(LookalikeKey.looks(of: name)).contains(
        where: try #require(LookalikeKey.looks(of: "realuser")).contains))
  }

  /// Issue 41, finding 9: each of these passed, the skeleton being taken after case folding only.
  static let issue41Pairs = [
    ("reaIuser", "realuser"), ("paypaI", "paypal"), ("aIice", "alice"), ("ALlCE", "alice"), ("ΤΟΜ", "tom"),
    ("ТОМ", "tom"), ("ВОВ", "bob"), ("КАТЕ", "kate"), ("ΚΑΤΕ", "kate"), ("ᎪᎠᎷᎥᏁ", "admin"), ("ʀealuser", "realuser"),
  ]

  @Test(
    "capital I for l, mixed case, all-capital Greek, Cyrillic and Cherokee, a small capital R: look alike",
    arguments: issue41Pairs)
  func issue41(name: String, existing: String) {
    #expect(LookalikeKey.looksLike(name, existing))
    // Whichever was made first.
    #expect(LookalikeKey.looksLike(existing, name))
  }

  @Test("names that differ to a reader do not look alike")
  func differentLook() {
    let pairs = [
      ("alice", "bob"), ("민지", "민주"), ("realuser", "realusers"), ("kim", "kin"), ("Ελένη", "eleni"), ("ᏣᎳᎩ", "admin"),
      ("tom", "toms"),
    ]
    for (one, other) in pairs {
      #expect(!LookalikeKey.looksLike(one, other), "\(one) \(other)")
      #expect(!LookalikeKey.looksLike(other, one), "\(other) \(one)")
    }
  }

  @Test(
    "a new name that mixes scripts is refused, naming the rule",
    arguments: ["аdmin", "aadmіn", "paypaӏ", "reаluser", "ωmega"])
  func mixedScripts(name: String) {
    #expect {
      _ = try Account.newName(name)
    } throws: { error in
      let error = error as? ShopError
      return error?.kind == .invalid && error?.message.contains("may not mix scripts") == true
    }
  }

  @Test(
    "names of one script, or Latin with Hangul, Han or kana, are accepted",
    arguments: [
      "realuser", "𝐫𝐞𝐚𝐥𝐮𝐬𝐞𝐫", "ㅋㅋ", "민지", "kim민지", "bob_smith", "kim-min", "Ελένη", "иван", "山田太郎", "やまだ", "alice.b",
    ])
  func accepted(name: String) throws {
    #expect(try Account.newName(name) == name)
  }

  @Test("existing accounts keep their names: loading does not apply the new-name rules")
  func existingKept() throws {
    #expect(try Account.name("аdmin") == "аdmin")
  }
}
