import StockroomProtocol

/// Checks every line a fuzzing connection receives against Protocol.md §2: the greeting first,
/// then replies made of `* ` rows and one status line, events only between replies, and nothing
/// a line-splitting client could misread.
struct ReplyAudit: Sendable {
  enum Greeting: Sendable, Equatable {
    case ready
    /// `ERR LIMIT`: the server was full; nothing more may follow.
    case full
  }

  /// An error line longer than this quotes far more of the request than a person needs: the
  /// issue asks for a short prefix of an offending word, and no documented message comes near it.
  /// `ERR SHORTAGE` is left out: it names every short item of an order of up to 100 lines.
  static let longestErrorLine = 4096

  private(set) var greeting: Greeting?
  private(set) var replies = 0
  private(set) var lastStatus = ""
  private(set) var events = 0
  /// Which reply (counting from 1) was the first `ERR TOOLONG`, if any.
  private(set) var tooLongReply: Int?
  private(set) var problems: [String] = []
  private var rowsInReply = 0

  mutating func feed(_ line: ArraySlice<UInt8>) {
    // Said only when there is a problem to say it in: most lines have none.
    var index: String { greeting == nil ? "greeting" : "reply \(replies + 1)" }
    let facts = LineBytes(line)
    if !facts.isUTF8 {
      problems.append("\(index): not UTF-8: \(FuzzText.describe(line))")
    }
    if facts.hasControl {
      problems.append("\(index): control character in a line: \(FuzzText.describe(line))")
    }
    if facts.hasUnicodeLineBreak {
      problems.append(
        "\(index): raw U+2028/U+2029/U+0085, which line-splitting clients misframe: \(FuzzText.describe(line))")
    }
    guard greeting != nil else {
      if LineBytes.line(line, startsWith: "OK stockroomd ") {
        greeting = .ready
      } else if LineBytes.line(line, startsWith: "ERR LIMIT ") {
        greeting = .full
      } else {
        problems.append("the first line is not a greeting: \(FuzzText.describe(line))")
        greeting = .ready
      }
      return
    }
    if greeting == .full {
      problems.append("a line after ERR LIMIT: \(FuzzText.describe(line))")
      return
    }
    // Classified by bytes: as Characters, "OK " followed by a combining mark does not begin with "OK ".
    if LineBytes.line(line, startsWith: "! ") {
      events += 1
      if rowsInReply > 0 {
        problems.append("\(index): an event inside a reply, after \(rowsInReply) rows: \(FuzzText.describe(line))")
      }
    } else if line.count == 1 && line.first == UInt8(ascii: "*") || LineBytes.line(line, startsWith: "* ") {
      rowsInReply += 1
    } else if line.count == 2 && LineBytes.line(line, startsWith: "OK") || LineBytes.line(line, startsWith: "OK ") {
      finish(line)
    } else if LineBytes.line(line, startsWith: "ERR ") {
      let code = line.dropFirst(4).prefix(16).prefix { $0 != UInt8(ascii: " ") }
      if ErrorCode(rawValue: String(decoding: code, as: UTF8.self)) == nil {
        problems.append("\(index): an error code Protocol.md does not list: \(FuzzText.describe(line))")
      }
      if line.count > Self.longestErrorLine && !LineBytes.line(line, startsWith: "ERR SHORTAGE ") {
        problems.append("\(index): an error line of \(line.count) bytes: \(FuzzText.describe(line))")
      }
      finish(line)
      if tooLongReply == nil && LineBytes.line(line, startsWith: "ERR TOOLONG ") { tooLongReply = replies }
    } else {
      problems.append("\(index): not a protocol line: \(FuzzText.describe(line))")
    }
  }

  private mutating func finish(_ status: ArraySlice<UInt8>) {
    replies += 1
    rowsInReply = 0
    lastStatus = String(decoding: status, as: UTF8.self)
  }
}
