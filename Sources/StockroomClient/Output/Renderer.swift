import StockroomProtocol

/// Turns replies and events into the text a person, a script or `jq` reads.
public struct Renderer: Sendable {
  public var mode: OutputMode
  public var palette: Palette
  public var dates: DateStyle
  /// The width tables and cards must fit, read before each reply so a resized window gets
  /// replies that fit it: the terminal's, 80 for a file, nil for no limit (`--wide`).
  public var terminalWidth: @Sendable () -> Int? = { Renderer.defaultWidth }
  public static let defaultWidth = 80
  /// What NAMES said, so receipts and STOCK show the shop's names beside the ids its
  /// replies carry; empty where nothing fetched it (then ids alone, as before).
  public var names = CatalogNames()
  /// JSON laid out over lines for a person (stdout a terminal); one line per reply otherwise,
  /// so a pipe into `jq` or a JSON Lines reader gets one object a line.
  public var prettyJSON = false
  /// Raw and CSV output goes to a terminal, where the server's words must not reach the
  /// terminal as controls (`VisibleControls`); a program reading a pipe gets them exact.
  /// Human output is always for a person and always escaped; JSON escapes them itself.
  public var escapesControls = false
  /// Whether the advice in replies names options or the REPL's commands.
  public var advice = AdviceSpelling.commandLine

  public init(mode: OutputMode, palette: Palette, dates: DateStyle = .english) {
    self.mode = mode
    self.palette = palette
    self.dates = dates
  }

  /// The reply as lines ending in LF.
  public func render(_ reply: Reply) -> String {
    let reply = shown(reply)
    switch mode {
    case .raw: return reply.lines.map { $0 + "\n" }.joined()
    case .json: return JSONReply.encode(reply, pretty: prettyJSON) + "\n"
    case .csv: return CSVWriter.render(reply)
    case .human: return human(reply)
    }
  }

  public func render(event row: Row, line: String) -> String {
    let escaping = escapes
    let row = escaping ? VisibleControls.row(row) : row
    switch mode {
    case .raw: return (escaping ? VisibleControls.escaped(line, lineBreaks: false) : line) + "\n"
    case .json: return JSONReply.encode(event: row) + "\n"
    case .csv: return CSVWriter.render(event: row)
    case .human: return humanEvent(row) + "\n"
    }
  }

  /// The status line alone, as a person reads it.
  public func status(_ reply: Reply) -> String {
    HumanReply(
      reply: VisibleControls.reply(reply), palette: palette, dates: dates, limit: nil, names: names, advice: advice
    ).status()
  }

  private var escapes: Bool {
    switch mode {
    case .human: true
    case .json: false
    case .raw, .csv: escapesControls
    }
  }

  /// The reply as this output shows it: escaped where a terminal or a person reads it.
  private func shown(_ reply: Reply) -> Reply {
    escapes ? VisibleControls.reply(reply) : reply
  }

  private func human(_ reply: Reply) -> String {
    // A terminal that cannot say how wide it is gets the width of a file; only --wide has none.
    let width = terminalWidth().map { $0 > 0 ? $0 : Self.defaultWidth }
    let lines = HumanReply(
      reply: reply, palette: palette, dates: dates, limit: width, names: names, advice: advice
    ).lines()
    return lines.map { $0 + "\n" }.joined()
  }

  /// A value as a person reads it: timestamps in the user's zone and language.
  public func display(_ value: String) -> String {
    dates.short(iso: value) ?? value
  }

  /// A notice of the client's own words, broken at spaces to the width as the status line is.
  private func notice(_ text: String) -> String {
    let width = terminalWidth().map { $0 > 0 ? $0 : Self.defaultWidth } ?? 0
    return TextWrap.lines(text, width: width, hanging: 2).map(palette.event).joined(separator: "\n")
  }

  private func humanEvent(_ row: Row) -> String {
    let kind = row.id ?? "event"
    if kind == "closing", row["reason"] == "idle" {
      let after = row["idle_seconds"].map { " after \($0) s" } ?? ""
      return notice("! the server closed this idle connection\(after); will reconnect on the next command")
    }
    if kind == "store", let state = row["state"] {
      switch state {
      case "down":
        let reason = row["reason"].map { " (\($0))" } ?? ""
        return notice("! the server lost the shop's database\(reason); stock shown may be stale until it is back")
      case "up": return notice("! the shop's database is back; the stock above is up to date again")
      default: break
      }
    }
    guard kind == "stock", let item = row["item"], let level = row["level"] else {
      let rest = row.fields.map { $0.key.isEmpty ? $0.value : "\($0.key)=\($0.value)" }
      return palette.event("! " + kind) + (rest.isEmpty ? "" : " " + rest.joined(separator: " "))
    }
    var detail: [String] = []
    if let change = row["change"] { detail.append(change) }
    if let cause = row["cause"] {
      detail.append(row["order"].map { "\(cause) \($0)" } ?? cause)
    }
    if let user = row["user"] { detail.append("by " + user) }
    let known: Set<String> = ["item", "name", "level", "change", "cause", "order", "user"]
    for field in row.fields where !known.contains(field.key) {
      detail.append("\(field.key)=\(field.value)")
    }
    let tail = detail.isEmpty ? "" : " (" + detail.joined(separator: ", ") + ")"
    // The display name, when it says more than the id: `p8 (떡)`, but `banana` for Banana.
    var shown = item
    if let name = row["name"], name.lowercased() != item.lowercased() { shown += " (\(name))" }
    return palette.event("! stock \(shown) → \(level)") + tail
  }
}
