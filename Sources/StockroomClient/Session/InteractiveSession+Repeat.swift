import StockroomProtocol

/// `:watch`: one request again and again, its reply drawn in place.
extension InteractiveSession {
  /// `:watch SECONDS COMMAND`: the reply redrawn in place every SECONDS until Ctrl-C or `q`,
  /// or until the command fails; a command that writes runs only after a yes. With `pipe`
  /// each reply goes through that shell command, and what it prints is drawn.
  func repeatEvery(_ words: [String], through pipe: String? = nil) {
    let request: WatchRequest
    switch WatchRequest.parse(words) {
    case .failure(let refusal):
      tell(refusal.description, renderer.palette.error)
      return
    case .success(let parsed): request = parsed
    }
    let seconds = max(request.seconds, CommandRepeater.minimumSeconds)
    let command = request.command
    if request.writes {
      let name = command.split(separator: " ").prefix(2).joined(separator: " ")
      say(
        renderer.palette.error("\(name) changes the shop, and would again every \(CommandRepeater.format(seconds)) s.")
          + "\n")
      editor.printAbove("Repeat it until Ctrl-C, q or an error? [y/N] ")
      guard CommandRepeater.confirmed() else {
        say("no\n" + renderer.palette.dim("not repeated; nothing sent") + "\n")
        return
      }
      say("yes\n")
    }
    let repeater = CommandRepeater(seconds: seconds, command: command + (pipe.map { " | " + $0 } ?? ""))
    var problem: String? = nil
    repeater.run { [unowned self] () -> CommandRepeater.Round? in
      guard let connection = connected() else { return nil }
      do throws(ClientError) {
        try connection.send(command)
        let reply = try waitForReply(on: connection)
        guard let pipe else { return CommandRepeater.Round(text: renderer.render(reply), failed: !reply.isOK) }
        // The command sees the reply as `| COMMAND` does, without colour; an ERR stops the
        // rounds and is shown whether or not the command kept its line.
        var plain = renderer
        plain.palette = Palette(isEnabled: false)
        switch handOff.filter(plain.render(reply), through: pipe) {
        case .success(let printed):
          return CommandRepeater.Round(
            text: printed + (reply.isOK ? "" : renderer.status(reply) + "\n"), failed: !reply.isOK)
        case .failure(let refusal):
          problem = refusal.description
          return nil
        }
      } catch {
        lost(error)
        return nil
      }
    }
    if let problem { tell(problem, renderer.palette.error) }
    say("\n")
  }
}
