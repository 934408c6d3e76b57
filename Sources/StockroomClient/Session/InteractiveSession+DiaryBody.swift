import StockroomProtocol

/// A diary body written in `$VISUAL` or `$EDITOR` rather than on the command line.
extension InteractiveSession {
  /// `DIARY NEW "title"` without a body, or `DIARY EDIT 3` without anything to change: the
  /// body is written in `$VISUAL`/`$EDITOR`, starting from the entry's current body, and the
  /// line is sent with it. Nil when the edit was cancelled, which has been said.
  func withTextEdited(_ line: String) -> String? {
    guard let words = try? Tokenizer.words(in: line), words.count == 3,
      words[0].text.uppercased() == "DIARY", !words[2].isOption
    else { return line }
    let subcommand = words[1].text.uppercased()
    // A guest's diary command is refused whatever it says; the server says so before any typing.
    guard subcommand == "NEW" || subcommand == "EDIT", identity != nil else { return line }
    var current = ""
    if subcommand == "EDIT" {
      guard let connection = connected() else { return nil }
      do {
        let reply = try request("DIARY SHOW " + Quoting.quote(words[2].value), on: connection)
        guard reply.isOK else {
          say(renderer.render(reply))
          return nil
        }
        current = reply.rows.first?["body"] ?? ""
      } catch {
        lost(error)
        return nil
      }
    }
    switch textEditor.edit(current) {
    case .cancelled(let reason):
      tell("\(reason); nothing sent", renderer.palette.error)
      return nil
    case .saved(let body):
      if subcommand == "EDIT" && body == current {
        tell("the body is unchanged; nothing sent", renderer.palette.error)
        return nil
      }
      let head = words[0].text + " " + words[1].text + " " + Quoting.quote(words[2].value)
      return head + (subcommand == "NEW" ? " " + Quoting.quote(body) : " body=" + Quoting.quote(body, isValue: true))
    }
  }
}
