import StockroomProtocol
import Testing

@Suite("Tokenizer", .timeLimit(.minutes(30)))
struct TokenizerTests {
  private func texts(_ line: String) throws -> [String] {
    try Tokenizer.words(in: line).map(\.text)
  }

  private func syntaxError(_ line: String) -> ProtocolError? {
    do {
      _ = try Tokenizer.words(in: line)
      return nil
    } catch {
      return error
    }
  }

  @Test("splits words on spaces and tabs and ignores runs of them")
  func splitsOnBlanks() throws {
    #expect(try texts("ORDER  banana_juice\t2 ") == ["ORDER", "banana_juice", "2"])
    #expect(try texts("") == [])
    #expect(try texts(" \t ") == [])
  }

  @Test("keeps a quoted word with spaces whole and undoes every escape")
  func quotedWordsAndEscapes() throws {
    #expect(
      try texts(#"DIARY NEW "Market day" "a\"b\\c\nd\te\rf""#) == ["DIARY", "NEW", "Market day", "a\"b\\c\nd\te\rf"])
    #expect(try texts(#""\u{48}\u{D55C}\u{1F34C}""#) == ["H한🍌"])
    #expect(try texts(#""""#) == [""])
  }

  @Test("a bare word or option of any length, small string or not, ASCII or not, comes back as written")
  func bareWordsOfEveryLength() throws {
    for letter in ["a", "Z", "é", "한", "🍌"] {
      for length in 1...40 {
        let word = String(repeating: letter, count: length)
        let words = try Tokenizer.words(in: "PING \(word) key=\(word)")
        #expect(words.map(\.text) == ["PING", word, "key=" + word], "\(letter) × \(length)")
        #expect(words[1].value == word && !words[1].isOption)
        #expect(words[2].key == "key" && words[2].value == word)
      }
    }
    let empty = try Tokenizer.words(in: "PING key=")
    #expect(empty.count == 2 && empty[1].text == "key=" && empty[1].key == "key" && empty[1].value == "")
  }

  @Test("reads Korean text bare and quoted")
  func koreanText() throws {
    #expect(try texts("ORDER 딸바쥬스 2") == ["ORDER", "딸바쥬스", "2"])
    #expect(try texts(#"DIARY NEW "첫 일기" "오늘은 딸기를 샀다""#) == ["DIARY", "NEW", "첫 일기", "오늘은 딸기를 샀다"])
  }

  @Test("joins bare and quoted parts into one word, so key=\"a b\" is one option")
  func optionsWithQuotedValues() throws {
    let words = try Tokenizer.words(in: #"PRODUCT NEW name="Red apple" price=1200 "a=b" Price=3"#)
    #expect(words.map(\.text) == ["PRODUCT", "NEW", "name=Red apple", "price=1200", "a=b", "Price=3"])
    #expect(words[2].key == "name")
    #expect(words[2].value == "Red apple")
    #expect(words[4].key == nil, "a quoted a=b is a plain word")
    #expect(words[5].key == "price", "option keys are case-insensitive")
    let more = try Tokenizer.words(in: #"note=a=b "x"=y key="q"tail"#)
    #expect(more.map(\.text) == ["note=a=b", "x=y", "key=qtail"])
    #expect(more[0].key == "note" && more[0].value == "a=b", "only the first = splits")
    #expect(more[1].key == nil, "a key must be bare, not quoted")
    #expect(more[2].key == "key" && more[2].value == "qtail")
  }

  @Test("a word whose part before = is not an identifier is not an option")
  func nonIdentifierKeys() throws {
    let words = try Tokenizer.words(in: "1=2 =x a-b=c")
    #expect(words.allSatisfy { $0.key == nil })
  }

  @Test(
    "refuses every malformed form with SYNTAX",
    arguments: [
      #"SHOW "unterminated"#, #"SHOW "bad \q escape""#, #"SHOW "\u{}""#, #"SHOW "\u{110000}""#,
      #"SHOW "\u{D800}""#, #"SHOW "\u{1234567}""#, #"SHOW "\u41""#, "SHOW a\u{1}b", "SHOW \"a\u{7F}\"",
      #"SHOW "trailing\"#,
    ])
  func malformed(_ line: String) {
    let error = syntaxError(line)
    #expect(error?.code == .syntax, "\(line) gave \(String(describing: error))")
  }

  @Test("refuses invalid UTF-8 and says at which byte")
  func invalidUTF8() throws {
    let cases: [[UInt8]] = [
      [0x53, 0x48, 0xFF], [0xC3, 0x28], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
      [0xE2, 0x82],
    ]
    for bytes in cases {
      #expect(throws: ProtocolError.self) { try Tokenizer.words(in: ArraySlice(bytes)) }
    }
    do {
      _ = try Tokenizer.words(in: ArraySlice([0x41, 0x42, 0xFF]))
      Issue.record("accepted invalid UTF-8")
    } catch {
      #expect(error.message.contains("byte 3"))
    }
  }

  @Test("finds a bad byte anywhere in a line of eight bytes or more, which is checked eight at a time")
  func invalidUTF8InLongLines() throws {
    for length in 8...25 {
      for position in 0..<length {
        var line = Array(repeating: UInt8(ascii: "a"), count: length)
        line[position] = 0xFF
        let found = line.withUnsafeBufferPointer { Tokenizer.firstInvalidUTF8Offset($0) }
        #expect(found == position, "length \(length), 0xFF at \(position): found \(String(describing: found))")
      }
      // Well-formed non-ASCII passes: "é" is two bytes.
      let accented = Array(String(repeating: "a", count: length - 2).utf8) + Array("é".utf8)
      #expect(accented.withUnsafeBufferPointer { Tokenizer.firstInvalidUTF8Offset($0) } == nil)
    }
  }

  @Test("quoting then tokenizing gives back every string, including awkward ones")
  func roundTrip() throws {
    let samples = [
      "plain", "", "two words", "tab\there", "quote\"inside", "back\\slash", "line\nbreak", "cr\rx",
      "a=b", "딸기 쥬스", "🍌", "\u{1}\u{7F}", "=", "\"", "ends with space ",
    ]
    for sample in samples {
      let quoted = Quoting.quote(sample)
      let words = try Tokenizer.words(in: quoted)
      #expect(words.count == 1, "\(quoted)")
      #expect(words.first?.text == sample, "\(quoted)")
      #expect(words.first?.key == nil, "\(quoted) must not read back as an option")
    }
  }

  @Test("leaves simple words bare so nc sessions stay readable")
  func bareWhenPossible() {
    #expect(Quoting.quote("banana") == "banana")
    #expect(Quoting.quote("딸기") == "딸기")
    #expect(Quoting.quote("a=b", isValue: true) == "a=b")
    #expect(Quoting.quote("a=b") == "\"a=b\"")
    #expect(Quoting.quote("two words") == "\"two words\"")
  }
}
