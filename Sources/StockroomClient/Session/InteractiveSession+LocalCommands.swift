import CStockroomShims
import StockroomProtocol

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The `:` commands and HELP, which the REPL answers itself: listings, switches, pages, `:!`.
extension InteractiveSession {
  /// True when the session should end.
  func perform(_ command: LocalCommand) -> Bool {
    if let text = listing(command, palette: renderer.palette) {
      show(text)
      return false
    }
    switch command {
    case .wide(let argument):
      flip(":wide", argument, state: wide, label: "wide tables") { setWide($0) }
    case .page(let step):
      turnPage(step)
    case .connect(let url):
      connect(to: url)
    case .watch(let words):
      repeatEvery(words)
    case .shell(let command):
      if let note = handOff.run(command) { tell(note, renderer.palette.dim) }
    case .clear:
      say("\u{1B}[H\u{1B}[2J")
    case .json(let argument):
      flip(":json", argument, state: renderer.mode == .json, label: "json output") { on in
        renderer.mode = on ? .json : (defaultMode == .json ? .human : defaultMode)
      }
    case .timing(let argument):
      flip(":timing", argument, state: timing, label: "timing") { timing = $0 }
    case .pager(let argument):
      let command = pagerCommand.map { " (\($0))" } ?? ""
      flip(":pager", argument, state: paging, label: "pager", detail: { $0 ? command : "" }, set: { paging = $0 })
    case .top:
      if let refusal = BoardSession.refusal(outputIsTerminal: isatty(1) == 1) {
        tell(refusal, renderer.palette.error)
      } else {
        _ = BoardSession(options: options, credentials: credentials, palette: renderer.palette).run()
      }
    case .unknown(let word):
      tell(LocalCommand.unknownMessage(word), renderer.palette.error)
    case .help, .clientHelp, .history:
      break
    case .quit:
      if let connection {
        try? connection.send("QUIT")
        if let reply = try? waitForReply(on: connection) {
          say(renderer.render(reply))
        }
      }
      return true
    }
    return false
  }

  /// The text of a local command that prints a listing (HELP, `:help`, `:history`), which the
  /// pager or `| COMMAND` and `> FILE` take as they take a reply; nil for the others.
  func listing(_ command: LocalCommand, palette: Palette) -> String? {
    switch command {
    case .help(let words):
      let width = renderer.terminalWidth().map { $0 > 0 ? $0 : Renderer.defaultWidth }
      return HelpText.render(words, palette: palette, width: width)
    case .clientHelp:
      let width = LocalCommand.summaries.map { DisplayWidth.of($0.usage) }.max() ?? 0
      return LocalCommand.summaries.map { usage, summary in
        palette.header(DisplayWidth.padRight(usage, to: width)) + "  " + summary + "\n"
      }.joined()
    case .history:
      let entries = editor.entries
      let width = String(entries.count).count
      return entries.enumerated().map { index, entry in
        DisplayWidth.padLeft(String(index + 1), to: width) + "  " + entry + "\n"
      }.joined()
    default:
      return nil
    }
  }

  /// What the screen says after a reply went to `| COMMAND` or `> FILE`: a failed hand-off, a
  /// pipe's command that failed, and the reply's status line, so an ERR is never seen only in
  /// a file. A pipe shows its ERR too (its command may have filtered the line away), and an OK
  /// only as the command printed it.
  func handedOff(_ delivery: ShellHandOff.Delivery, to target: OutputRedirect.Target, reply: Reply?) {
    if case .failed(let problem) = delivery {
      tell(problem, renderer.palette.error)
      return
    }
    if let reply {
      switch target {
      case .file(let name, let append):
        say(renderer.status(reply) + renderer.palette.dim(" (\(append ? "added to" : "written to") \(name))") + "\n")
      case .pipe:
        if !reply.isOK { say(renderer.status(reply) + "\n") }
      }
    }
    if case .exited(let status) = delivery {
      tell("exit status \(status)", renderer.palette.dim)
    }
  }

  /// One switch: set and said, said alone (`; :json on|off changes it`), or a word that is no
  /// setting refused with those that are.
  private func flip(
    _ command: String, _ argument: SwitchArgument, state: Bool, label: String,
    detail: (Bool) -> String = { _ in "" }, set: (Bool) -> Void
  ) {
    switch argument {
    case .invalid(let word):
      tell(SwitchArgument.refusal(command, word), renderer.palette.error)
    case .report:
      say("\(label) \(state ? "on" : "off")\(detail(state)); \(command) on|off changes it\n")
    case .set(let on):
      set(on)
      say("\(label) \(on ? "on" : "off")\(detail(on))\n")
    }
  }

  private func setWide(_ on: Bool) {
    wide = on
    if on {
      renderer.terminalWidth = { nil }
    } else if outputIsTerminal {
      renderer.terminalWidth = { Int(sr_terminal_columns(1)) }
    } else {
      renderer.terminalWidth = { Renderer.defaultWidth }
    }
  }

  /// `:next` and `:prev`: the last paged list's request again, with the page beside.
  private func turnPage(_ step: Int) {
    guard let pageCursor else {
      say(
        renderer.palette.dim("no paged list yet: :next follows a LIST, STOCKTAKE or DIARY LIST that has pages") + "\n")
      return
    }
    switch pageCursor.line(moving: step) {
    case .success(let line):
      tell(line, renderer.palette.dim)
      execute(line)
    case .failure(let refusal):
      tell(refusal.description, renderer.palette.dim)
    }
  }
}
