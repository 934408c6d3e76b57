/// Lays the board out for one window size: a list of screen lines, each at most `columns`
/// cells wide (styles aside), never more than `rows` of them.
///
/// Wide windows get the stock and the recent orders side by side; narrow ones get them one
/// above the other. Items that do not fit are dropped from the bottom, and the last line that
/// fits says how many.
public struct BoardLayout {
  public var columns: Int
  public var rows: Int
  public var palette: Palette
  /// The wall-clock time shown in the title, `HH:MM:SS`.
  public var clock: String
  public var ordersPerSecond: Double

  /// Narrower than this, the two lists are stacked.
  static let sideBySide = 96
  /// As wide as STOCK's bars, so both draw an item alike.
  static let barCells = StockBar.width
  /// The recent orders the stacked layout keeps room for, stock rows giving way.
  static let ordersKept = 5

  public func lines(for state: BoardState) -> [String] {
    guard columns >= 20, rows >= 5 else {
      return Array([fit("window too small for the board"), fit("q quits")].prefix(max(rows, 0)))
    }
    var lines = [title(state)] + summary(state)
    lines += (wrapped(status(state) ?? "", lines: 2) ?? [""]).map { palette.error($0) } + [""]
    let body = rows - lines.count
    if columns >= Self.sideBySide {
      // The stock takes what its widest line needs, the orders the rest.
      let longest = state.items.map { min(24, DisplayWidth.of($0.name)) }.max() ?? 4
      let levels = max(3, state.items.map { String($0.level).count }.max() ?? 1)
      let left = min(64, columns * 11 / 20, max(longest, 4) + 1 + levels + 2 + Self.barCells)
      let right = columns - left - 4
      let stock = stockLines(state, width: left, height: body)
      let recent = orderLines(state, width: right, height: body)
      for index in 0..<body {
        let a = index < stock.count ? stock[index] : (plain: "", styled: "")
        let b = index < recent.count ? recent[index] : (plain: "", styled: "")
        if a.plain.isEmpty && b.plain.isEmpty { break }
        lines.append(a.styled + String(repeating: " ", count: left - DisplayWidth.of(a.plain) + 4) + b.styled)
      }
    } else {
      // The orders keep a heading and five rows (80x24 shows them all), stock rows giving
      // way, down to half the room in a window too small for both. Rows no order fills yet
      // go to the stock, so no row stays blank while items are left out.
      let orderRows = 1 + max(1, min(Self.ordersKept, state.orders.count))
      let ordersWanted = min(orderRows, max(3, body / 2))
      let stockHeight = max(2, min(1 + max(state.items.count, 1), body - ordersWanted - 1))
      let stock = stockLines(state, width: columns, height: stockHeight)
      lines += stock.map(\.styled)
      let left = body - stock.count - 1
      if left >= 2 {
        lines.append("")
        lines += orderLines(state, width: columns, height: left).map(\.styled)
      }
    }
    return Array(lines.prefix(rows))
  }

  // MARK: - Header

  private func title(_ state: BoardState) -> String {
    let who = state.identity.map { "\($0.name) (\($0.role.rawValue))" } ?? "guest"
    let left = " stockroom top · \(state.server) · \(who)"
    // The key hint is never cut: the clock goes first, then the title gives way to it.
    let hint = "q quits "
    let right = columns - DisplayWidth.of(left) > DisplayWidth.of(clock + "  " + hint) ? "\(clock)  \(hint)" : hint
    let room = columns - DisplayWidth.of(right)
    let text = DisplayWidth.padRight(fit(left, max(0, room)), to: max(0, room)) + right
    return palette.isEnabled ? "\u{1B}[7m" + text + "\u{1B}[0m" : text
  }

  /// The summary on one line, or on two broken between its parts when one is too narrow.
  private func summary(_ state: BoardState) -> [String] {
    var parts = [
      String(format: "%.1f orders/s", ordersPerSecond),
      state.ordersSeen == 1 ? "1 order seen" : "\(state.ordersSeen) orders seen",
    ]
    if let presence = state.presence {
      var who = "\(presence.clients) connected"
      if presence.named.isEmpty {
        // Connections throughout: users counts accounts, and one may be on several.
        let loggedIn = max(0, presence.clients - presence.guests)
        let accounts =
          presence.users == loggedIn ? "" : presence.users == 1 ? ", 1 account" : ", \(presence.users) accounts"
        who += " (\(Self.guests(presence.guests)), \(loggedIn) logged in\(accounts))"
      } else {
        let names = presence.named.map { user in
          user.name + (user.connections > 1 ? " ×\(user.connections)" : "")
        }
        let guests = presence.guests > 0 ? [Self.guests(presence.guests)] : []
        who += ": " + (names + guests).joined(separator: ", ")
      }
      parts.append(who)
      parts.append("\(presence.watchers) watching")
    }
    let one = " " + parts.joined(separator: " · ")
    if DisplayWidth.of(one) <= columns { return [one] }
    let half = (parts.count + 1) / 2
    return [" " + parts.prefix(half).joined(separator: " · "), " " + parts.dropFirst(half).joined(separator: " · ")]
      .map { fit($0) }
  }

  /// `text` broken at spaces into at most `lines` lines of the window's width, the last cut
  /// if it must be; nil for no text.
  private func wrapped(_ text: String, lines: Int) -> [String]? {
    guard !text.isEmpty else { return nil }
    let broken = TextWrap.lines(text, width: columns - 1).map { " " + $0.trimmingSpaces() }
    return Array(broken.prefix(lines)).map { fit($0) }
  }

  private static func guests(_ count: Int) -> String {
    count == 1 ? "1 guest" : "\(count) guests"
  }

  private func status(_ state: BoardState) -> String? {
    switch state.link {
    case .connected:
      if case .down(let reason) = state.storeLink {
        return " the server lost the shop's database\(reason.map { " (\($0))" } ?? ""); levels may be stale"
      }
      return state.notice.map { " " + $0 }
    case .lost(let reason, let attempts, let retryIn):
      let tries = attempts > 0 ? ", attempt \(attempts + 1)" : ""
      return " server went away (\(reason)); reconnecting in \(String(format: "%.1f", retryIn)) s\(tries)"
    }
  }

  // MARK: - Lists

  private typealias Line = (plain: String, styled: String)

  /// The heading, then one line per item that fits; when some do not, the last line says how
  /// many were left out instead of showing one more.
  private func stockLines(_ state: BoardState, width: Int, height: Int) -> [Line] {
    guard height > 0 else { return [] }
    var out: [Line] = [heading("STOCK", width: width)]
    let items = state.items
    let room = height - 1
    guard room > 0 else { return out }
    let shown = items.count <= room ? items.count : max(0, room - 1)
    let levelCells = max(3, items.map { String($0.level).count }.max() ?? 1)
    let longest = items.map { DisplayWidth.of($0.name) }.max() ?? 4
    // The bar gives way first to names of up to 10 cells, then the names to the bar.
    let bar = max(0, min(Self.barCells, width - min(10, longest) - levelCells - 3))
    let nameCells = max(4, min(24, longest, width - levelCells - bar - 3))
    for item in items.prefix(shown) {
      let name = DisplayWidth.padRight(DisplayWidth.truncate(item.name, to: nameCells), to: nameCells)
      let level = DisplayWidth.padLeft(String(item.level), to: levelCells)
      let fraction = item.bar.fraction
      let cells = item.bar.text(width: bar)
      let plain = name + " " + level + (bar > 0 ? "  " + cells : "")
      let styled = name + " " + level + (bar > 0 ? "  " + palette.bar(cells, fraction: fraction) : "")
      out.append(DisplayWidth.of(plain) <= width ? (plain, styled) : (fit(plain, width), fit(plain, width)))
    }
    if shown < items.count {
      let text = fit("… \(items.count - shown) more not shown; the window is too small", width)
      out.append((text, palette.dim(text)))
    }
    return out
  }

  private func orderLines(_ state: BoardState, width: Int, height: Int) -> [Line] {
    guard height > 0 else { return [] }
    var out: [Line] = [heading("RECENT ORDERS", width: width)]
    if state.orders.isEmpty && height > 1 {
      let text = fit("none yet", width)
      out.append((text, palette.dim(text)))
    }
    for order in state.orders.prefix(height - 1) {
      let taken = order.lines.map { "\($0.item) \($0.change)" }.joined(separator: ", ")
      let by = order.user.map { " by \($0)" } ?? ""
      let plain = fit("\(order.time)  #\(order.id)  \(taken)\(by)", width)
      out.append((plain, plain))
    }
    return out
  }

  private func heading(_ text: String, width: Int) -> Line {
    let plain = fit(text, width)
    return (plain, palette.header(plain))
  }

  private func fit(_ text: String) -> String { fit(text, columns) }

  private func fit(_ text: String, _ width: Int) -> String { DisplayWidth.truncate(text, to: width) }
}
