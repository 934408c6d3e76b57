import StockroomProtocol

/// Server text made safe to show on a terminal: every character the wire itself writes escaped
/// (C0 and C1 controls, DEL, line and paragraph separators, bidi controls) is shown in the
/// wire's own spelling, `\r`, `\t` or `\u{1b}`, instead of being handed to the terminal.
///
/// Replies carry other people's words: a product's description is its seller's. A raw CR would
/// send the cursor back to the start of the line, so what follows draws over what came before
/// (a fake `OK order=999` over the real reply); NEL, ESC and the other controls move the cursor,
/// change colours or retitle the window. Line breaks (LF) stay, as the views indent them.
public enum VisibleControls {
  /// `text` with every such character spelled out; LF too when `lineBreaks` is false, for a
  /// view (the board) whose every entry is one line.
  public static func escaped(_ text: String, lineBreaks: Bool = true) -> String {
    guard text.unicodeScalars.contains(where: { needsEscape($0, lineBreaks: lineBreaks) }) else { return text }
    var out = ""
    let scalars = Array(text.unicodeScalars)
    for (index, scalar) in scalars.enumerated() {
      // CR LF is a line break as Windows writes one, and shown as the line break it is.
      let endsLine = lineBreaks && scalar == "\r" && index + 1 < scalars.count && scalars[index + 1] == "\n"
      guard needsEscape(scalar, lineBreaks: lineBreaks), !endsLine else {
        if !endsLine { out.unicodeScalars.append(scalar) }
        continue
      }
      switch scalar {
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default: out += "\\u{" + String(scalar.value, radix: 16) + "}"
      }
    }
    return out
  }

  private static func needsEscape(_ scalar: Unicode.Scalar, lineBreaks: Bool) -> Bool {
    (scalar != "\n" || !lineBreaks) && Quoting.mustEscape(scalar)
  }

  /// A reply with every word the server said escaped: its rows, its status line and the
  /// protocol lines raw output prints.
  public static func reply(_ reply: Reply, lineBreaks: Bool = true) -> Reply {
    let status: Reply.Status
    switch reply.status {
    case .ok(let text): status = .ok(escaped(text, lineBreaks: lineBreaks))
    case .error(let code, let text): status = .error(code, escaped(text, lineBreaks: lineBreaks))
    }
    return Reply(
      rows: reply.rows.map { row($0, lineBreaks: lineBreaks) }, status: status,
      lines: reply.lines.map { escaped($0, lineBreaks: false) })
  }

  public static func row(_ row: Row, lineBreaks: Bool = true) -> Row {
    Row(
      id: row.id.map { escaped($0, lineBreaks: false) },
      fields: row.fields.map { (escaped($0.key, lineBreaks: false), escaped($0.value, lineBreaks: lineBreaks)) })
  }
}
