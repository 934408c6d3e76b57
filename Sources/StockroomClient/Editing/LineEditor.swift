import CLibedit
import CStockroomShims

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// libedit, wrapped: prompt, right-prompt hints, history with fish-style suggestions and
/// prefix search, Tab completion, Ctrl-C, and a read loop that also watches the server socket
/// so events print while the prompt waits.
///
/// libedit's callbacks are C function pointers without a context argument; each one finds
/// this object again through EL_CLIENTDATA, the way LLDB's Editline wrapper does.
///
/// Its jobs are in files of their own: `+Prompt` (the prompt and the hint beside the line),
/// `+Reading` (keys, read while the watched socket is served, with `KeyReader`),
/// `+Completion` (Tab), `+Suggestions` (fish-style suggestions, colours, Up and Down) and
/// `+EndingKeys` (Enter and Ctrl-C).
public final class LineEditor {
  public enum Input: Equatable {
    case line(String)
    case end
  }

  let editLine: OpaquePointer
  private let history: OpaquePointer?
  private let historyFile: String?
  public var prompt = "> "
  public var palette: Palette
  /// Candidates for the line up to the cursor.
  public var complete: (String) -> Completer.Completion = { _ in .init(partial: "", candidates: []) }
  /// The dimmed hint for the whole line, or nil.
  public var hint: (String) -> String? = { _ in nil }
  /// The line's styled runs as it is typed, or nil to leave it as libedit draws it; asked
  /// only while colour is on.
  var highlight: ((String) -> [LineSpan])? = nil
  /// Read alongside stdin while the prompt waits; `onReadable` runs when it has data.
  public var watched: Int32? = nil
  public var onReadable: () -> Void = {}
  /// How long the prompt may wait before `onTimeout` runs, in milliseconds; -1 for no limit.
  /// Asked before each wait, so a caller retrying in the background sets its own pace.
  public var timeout: () -> Int32 = { -1 }
  public var onTimeout: () -> Void = {}
  private var isReading = false
  /// Set while a finished line is redrawn, so the hint does not stay behind in scrollback.
  var hintHidden = false
  /// Set when Enter ended the read, which tells an empty line from end of input.
  var accepted = false
  var promptBuffer: UnsafeMutablePointer<CChar>? = nil
  var hintBuffer: UnsafeMutablePointer<CChar>? = nil
  /// The right prompt as last drawn, and as last drawn whole: libedit redraws a changed line
  /// by its differences, counting the dimming escape as a cell the terminal does not give it,
  /// so a hint that changes into another (`<item> [n] ...` into `[n] ...`) came out shifted
  /// (`<n] ...`). A changed hint is therefore drawn again whole before the next key.
  var hintText = " "
  var hintDrawnWhole = " "
  /// The keys typed, decoded for libedit.
  var keys = KeyReader()
  /// History as `entries` reads it, kept until a line is added: the suggestion reads it on
  /// every key.
  var historyCache: [String]? = nil
  /// Up or Down's walk through the lines that start with what was typed; it goes on while
  /// the line still shows what it last put there, and any edit starts a new one.
  var search: PrefixSearch? = nil
  /// Set once the editor has drawn over what libedit last drew, so it draws once per redraw.
  var overlayDrawn = false
  /// Set when Ctrl-C in vi command mode gave the line up: `readLine` answers an empty line.
  var interrupted = false
  /// Set while a suggestion stands after the cursor: it must be erased before libedit, which
  /// believes those cells blank, draws again.
  var suggestionDrawn = false
  /// Set while the line on the screen carries colours: cells libedit does not redraw keep
  /// them, so a line that needs none now (`ORD` after `ORDX`) is still drawn over, plain.
  var lineStyled = false

  static let escape: CChar = 1
  /// What a hint starts with when colour is off (NO_COLOR), where it cannot be dimmed.
  public static let plainHintLabel = "hint: "

  public init?(program: String, historyFile: String?, palette: Palette) {
    guard let editLine = sr_el_init(program) else { return nil }
    self.editLine = editLine
    self.palette = palette
    self.historyFile = historyFile
    history = sr_history_open(Int32(HistoryPolicy.maximumEntries))
    if let history {
      if let historyFile { _ = sr_history_load(history, historyFile) }
      _ = sr_el_set_history(editLine, history)
    }
    _ = sr_el_set_clientdata(editLine, Unmanaged.passUnretained(self).toOpaque())
    _ = sr_el_set_editor(editLine, "emacs")
    _ = sr_el_set_signal(editLine, 1)
    // Ctrl-C reaches the editor as a key, so it can clear the line instead of killing us.
    _ = sr_el_setty(editLine, "-isig")
    _ = sr_el_set_prompt(editLine, { el in LineEditor.from(el)?.promptCString() }, Self.escape)
    _ = sr_el_set_rprompt(editLine, { el in LineEditor.from(el)?.hintCString() }, Self.escape)
    _ = sr_el_set_getcfn(editLine) { el, out in LineEditor.from(el)?.readCharacter(into: out) ?? -1 }
    for (name, help, run) in Self.functions { _ = sr_el_add_function(editLine, name, help, run) }
    // With -isig Ctrl-Z is a key too; raising SIGTSTP lets libedit's signal handling
    // restore the terminal before stopping and put it back in raw mode after `fg`. Its own
    // redraw on SIGCONT does nothing (ed_redisplay only asks for one), so the line is drawn
    // again here, once raise returns with the program running again.
    _ = sr_el_add_function(editLine, "stockroom-suspend", "Suspend") { _, _ in
      raise(SIGTSTP)
      return UInt8(CC_REDISPLAY)
    }
    // libedit's own settings ($EDITRC, else ~/.editrc: `bind -v` for vi mode, macros), read
    // before the client binds its keys: `bind -v` resets the keymap, which would otherwise
    // take Tab, Enter, Ctrl-C, Ctrl-Z and Ctrl-R away from completion and the prompt.
    _ = el_source(editLine, nil)
    _ = sr_el_bind(editLine, "^^", "stockroom-cursor-key")
    _ = sr_el_bind(editLine, "^Z", "stockroom-suspend")
    _ = sr_el_bind(editLine, "^I", "stockroom-complete")
    _ = sr_el_bind(editLine, "^M", "stockroom-accept")
    _ = sr_el_bind(editLine, "^J", "stockroom-accept")
    _ = sr_el_bind(editLine, "^C", "stockroom-interrupt")
    _ = sr_el_bind(editLine, "^R", "em-inc-search-prev")
    // Right and Up arrive as Ctrl-F and Ctrl-P (see `CursorKey`), so these take the arrows too.
    _ = sr_el_bind(editLine, "^F", "stockroom-forward")
    // End arrives as Ctrl-E; both take the whole suggestion, as in fish and
    // zsh-autosuggestions. Alt-F and Ctrl-Right take its next word (`runPrivateKey`).
    _ = sr_el_bind(editLine, "^E", "stockroom-end")
    _ = sr_el_bind(editLine, "^P", "stockroom-older")
    _ = sr_el_bind(editLine, "^N", "stockroom-newer")
    bindViCommandMode()
  }

  /// The editor's own libedit functions, bound to keys in `init`: libedit calls each without
  /// a context, so each finds its editor again (`answer`).
  private static var functions: [(name: String, help: String, run: sr_command_fn)] {
    [
      ("stockroom-complete", "Complete the word", { el, _ in LineEditor.answer(el) { $0.completeWord() } }),
      ("stockroom-interrupt", "Clear the line", { el, _ in LineEditor.answer(el) { $0.interrupt() } }),
      ("stockroom-accept", "Accept the line", { el, _ in LineEditor.answer(el) { $0.accept() } }),
      (
        "stockroom-cursor-key", "Move a word, or delete forward",
        { el, _ in LineEditor.answer(el) { $0.runPrivateKey() } }
      ),
      ("stockroom-forward", "Take the suggestion, or move right", { el, _ in LineEditor.answer(el) { $0.forward() } }),
      ("stockroom-end", "Take the suggestion, or go to the end", { el, _ in LineEditor.answer(el) { $0.toEnd() } }),
      (
        "stockroom-older", "An older line starting with the typed text",
        { el, _ in LineEditor.answer(el) { $0.historyStep(older: true) } }
      ),
      (
        "stockroom-newer", "A newer line starting with the typed text",
        { el, _ in LineEditor.answer(el) { $0.historyStep(older: false) } }
      ),
    ]
  }

  /// What `run` answers on the editor of `el`; CC_ERROR when it has none.
  static func answer(_ el: OpaquePointer?, _ run: (LineEditor) -> UInt8) -> UInt8 {
    from(el).map(run) ?? UInt8(CC_ERROR)
  }

  deinit {
    el_end(editLine)
    if let history { history_end(history) }
    free(promptBuffer)
    free(hintBuffer)
  }

  static func from(_ el: OpaquePointer?) -> LineEditor? {
    guard let el, let data = sr_el_get_clientdata(el) else { return nil }
    return Unmanaged<LineEditor>.fromOpaque(data).takeUnretainedValue()
  }

  /// Shows the prompt and reads one line; `.end` on Ctrl-D at an empty line or end of input.
  public func readLine() -> Input {
    isReading = true
    hintHidden = false
    hintText = " "
    hintDrawnWhole = " "
    accepted = false
    interrupted = false
    search = nil
    overlayDrawn = false
    suggestionDrawn = false
    lineStyled = false
    var count: Int32 = 0
    let text = el_gets(editLine, &count)
    isReading = false
    if interrupted { return .line("") }
    if accepted { TerminalOutput.write("\n") }
    guard let text, count > 0 else { return accepted ? .line("") : .end }
    // libedit's own newline would have ended the buffer with NUL; ours did not, so what
    // follows the last character may be left from a longer earlier line.
    var line = accepted ? currentLine() : String(cString: text)
    while line.last == "\n" || line.last == "\r" { line.removeLast() }
    return .line(line)
  }

  /// Adds the line to history and the file, unless it is blank or carries a secret.
  public func remember(_ line: String) {
    guard let history, HistoryPolicy.shouldRemember(line) else { return }
    _ = sr_history_enter(history, line)
    historyCache = nil
    if let historyFile { _ = sr_history_save(history, historyFile) }
  }

  /// History, oldest first.
  public var entries: [String] {
    guard let history else { return [] }
    var out: [String] = []
    var next = sr_history_walk(history, 1)
    while let text = next {
      out.append(String(cString: text))
      next = sr_history_walk(history, 0)
    }
    return out
  }

  /// Prints whole lines above the prompt while the user types, then redraws the prompt and
  /// the half-typed line where they were; outside a read it just prints. With no text it
  /// only redraws. A new prompt takes effect after the old one is cleared, since how far up
  /// the old line starts depends on the old prompt's width.
  public func printAbove(_ text: String, prompt newPrompt: String? = nil) {
    guard isReading else {
      if let newPrompt { prompt = newPrompt }
      TerminalOutput.write(text)
      return
    }
    let columns = max(Int(sr_el_columns(editLine)), 1)
    let row = (DisplayWidth.of(prompt) + DisplayWidth.of(lineBeforeCursor())) / columns
    let last = max(row, (DisplayWidth.of(prompt) + DisplayWidth.of(currentLine())) / columns)
    // Each of the line's rows erased on its own, from its last up to the prompt's: tmux takes
    // "erase below" at the screen's top-left corner (the prompt's place after Ctrl-L) for a
    // clear screen and moves the screen into scrollback, so each key that changed the hint
    // left a copy of the line there. Nothing is drawn below the line.
    let down = last > row ? "\u{1B}[\(last - row)B" : ""
    let erase = String(repeating: "\u{1B}[2K\u{1B}[A", count: last) + "\u{1B}[2K"
    TerminalOutput.write("\r" + down + erase + text)
    if let newPrompt { prompt = newPrompt }
    _ = sr_el_refresh(editLine)
    // Erased and drawn afresh by libedit, plain: the next wait draws over it again.
    overlayDrawn = false
    suggestionDrawn = false
    lineStyled = false
  }

  func currentLine() -> String {
    guard let info = el_line(editLine)?.pointee, let buffer = info.buffer, let last = info.lastchar
    else { return "" }
    return text(from: buffer, count: last - buffer)
  }

  func lineBeforeCursor() -> String {
    guard let info = el_line(editLine)?.pointee, let buffer = info.buffer, let cursor = info.cursor
    else { return "" }
    return text(from: buffer, count: cursor - buffer)
  }

  func text(from buffer: UnsafePointer<CChar>, count: Int) -> String {
    guard count > 0 else { return "" }
    let bytes = UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self)
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }
}
