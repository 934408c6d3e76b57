/// Groups protocol lines into replies and events, for clients and tests.
///
/// Feed it lines without their LF in the order they arrived; it says when a reply is complete.
public struct ReplyReader: Sendable {
  public enum Item: Sendable, Equatable {
    case reply(Reply)
    case event(Row, line: String)
  }

  private var rows: [Row] = []
  private var lines: [String] = []

  public init() {}

  /// True while data lines have arrived without their status line.
  public var isInsideReply: Bool { !lines.isEmpty }

  public mutating func feed(_ rawLine: some StringProtocol) -> Item? {
    var line = String(rawLine)
    if line.hasSuffix("\r") { line.removeLast() }
    if line.hasPrefix("! ") {
      let row = (try? Row(parsing: String(line.dropFirst(2)))) ?? Row(id: String(line.dropFirst(2)))
      return .event(row, line: line)
    }
    lines.append(line)
    if line.hasPrefix("* ") || line == "*" {
      let text = String(line.dropFirst(2))
      rows.append((try? Row(parsing: text)) ?? Row(id: text))
      return nil
    }
    let status: Reply.Status
    if line == "OK" {
      status = .ok("")
    } else if line.hasPrefix("OK ") {
      status = .ok(String(line.dropFirst(3)))
    } else if line.hasPrefix("ERR ") {
      let rest = line.dropFirst(4)
      let codeText = rest.prefix { $0 != " " }
      let message = rest.dropFirst(codeText.count).drop { $0 == " " }
      status = .error(ErrorCode(rawValue: String(codeText)), String(message))
    } else {
      status = .error(nil, "unexpected line from server: \(line)")
    }
    let reply = Reply(rows: rows, status: status, lines: lines)
    rows = []
    lines = []
    return .reply(reply)
  }
}
