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
public final class LineEditor {
  public enum Input: Equatable {
    case line(String)
    case end
  }

  private let editLine: OpaquePointer
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
  private var hintHidden = false
  /// Set when Enter ended the read, which tells an empty line from end of input.
  private var accepted = false
  private var promptBuffer: UnsafeMutablePointer<CChar>? = nil
  private var hintBuffer: UnsafeMutablePointer<CChar>? = nil
  /// The right prompt as last drawn, and as last drawn whole: libedit redraws a changed line
  /// by its differences, counting the dimming escape as a cell the terminal does not give it,
  /// so a hint that changes into another (`<item> [n] ...` into `[n] ...`) came out shifted
  /// (`<n] ...`). A changed hint is therefore drawn again whole before the next key.
  private var hintText = " "
  private var hintDrawnWhole = " "
  /// Bytes read ahead after an ESC that turned out not to be a cursor key.
  private var pending: [UInt8] = []
  /// What the private key does next time libedit runs it.
  private var privateKey = CursorKey.ignored
  /// Ctrl-^, which emacs mode leaves unused: a key no search takes as text, so it ends one.
  private static let privateKeyByte: UInt8 = 0x1E
  /// History as `entries` reads it, kept until a line is added: the suggestion reads it on
  /// every key.
  private var historyCache: [String]? = nil
  /// Up or Down's walk through the lines that start with what was typed; it goes on while
  /// the line still shows what it last put there, and any edit starts a new one.
  private var search: PrefixSearch? = nil
  /// Set once the editor has drawn over what libedit last drew, so it draws once per redraw.
  private var overlayDrawn = false
  /// Set while a suggestion stands after the cursor: it must be erased before libedit, which
  /// believes those cells blank, draws again.
  /// Set when Ctrl-C in vi command mode gave the line up: `readLine` answers an empty line.
  private var interrupted = false
  private var suggestionDrawn = false
  /// Set while the line on the screen carries colours: cells libedit does not redraw keep
  /// them, so a line that needs none now (`ORD` after `ORDX`) is still drawn over, plain.
  private var lineStyled = false

  private static let escape: CChar = 1
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
    _ = sr_el_add_function(editLine, "stockroom-complete", "Complete the word") { el, _ in
      LineEditor.from(el)?.completeWord() ?? UInt8(CC_ERROR)
    }
    _ = sr_el_add_function(editLine, "stockroom-interrupt", "Clear the line") { el, _ in
      LineEditor.from(el)?.interrupt() ?? UInt8(CC_ERROR)
    }
    _ = sr_el_add_function(editLine, "stockroom-accept", "Accept the line") { el, _ in
      LineEditor.from(el)?.accept() ?? UInt8(CC_ERROR)
    }
    // With -isig Ctrl-Z is a key too; raising SIGTSTP lets libedit's signal handling
    // restore the terminal before stopping and put it back in raw mode after `fg`. Its own
    // redraw on SIGCONT does nothing (ed_redisplay only asks for one), so the line is drawn
    // again here, once raise returns with the program running again.
    _ = sr_el_add_function(editLine, "stockroom-suspend", "Suspend") { _, _ in
      raise(SIGTSTP)
      return UInt8(CC_REDISPLAY)
    }
    _ = sr_el_add_function(editLine, "stockroom-cursor-key", "Move a word, or delete forward") { el, _ in
      LineEditor.from(el)?.runPrivateKey() ?? UInt8(CC_ERROR)
    }
    _ = sr_el_add_function(editLine, "stockroom-forward", "Take the suggestion, or move right") { el, _ in
      LineEditor.from(el)?.forward() ?? UInt8(CC_ERROR)
    }
    _ = sr_el_add_function(editLine, "stockroom-end", "Take the suggestion, or go to the end") { el, _ in
      LineEditor.from(el)?.toEnd() ?? UInt8(CC_ERROR)
    }
    _ = sr_el_add_function(editLine, "stockroom-older", "An older line starting with the typed text") { el, _ in
      LineEditor.from(el)?.historyStep(older: true) ?? UInt8(CC_ERROR)
    }
    _ = sr_el_add_function(editLine, "stockroom-newer", "A newer line starting with the typed text") { el, _ in
      LineEditor.from(el)?.historyStep(older: false) ?? UInt8(CC_ERROR)
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

  /// In vi mode Ctrl-C in command mode (`bind -a`: the map emacs mode never uses) gives up the
  /// line and starts a new one, which libedit starts in insert mode: cleared in place, the
  /// line went on in command mode, so `STOCK` typed next was vi's `S` and `TOCK`, and Ctrl-D
  /// was no end of input.
  private func bindViCommandMode() {
    _ = sr_el_add_function(editLine, "stockroom-interrupt-vi", "Give up the line") { el, _ in
      LineEditor.from(el)?.interruptInCommandMode() ?? UInt8(CC_ERROR)
    }
    parse(["bind", "-a", "^C", "stockroom-interrupt-vi"])
  }

  private func interruptInCommandMode() -> UInt8 {
    hintHidden = true
    printAbove("")
    interrupted = true
    TerminalOutput.write("^C\n")
    return UInt8(CC_NEWLINE)
  }

  /// A libedit builtin command, as a line of editrc would give it.
  private func parse(_ words: [String]) {
    let copies = words.map { strdup($0) }
    defer { for copy in copies { free(copy) } }
    var argv = copies.map { UnsafePointer($0) }
    _ = el_parse(editLine, Int32(argv.count), &argv)
  }

  deinit {
    el_end(editLine)
    if let history { history_end(history) }
    free(promptBuffer)
    free(hintBuffer)
  }

  private static func from(_ el: OpaquePointer?) -> LineEditor? {
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

  // MARK: - Callbacks

  private func promptCString() -> UnsafeMutablePointer<CChar>? {
    free(promptBuffer)
    // libedit drops an escape sequence at the very end of the right prompt, so the reset
    // after the dimmed hint comes with a space there and again before the prompt.
    let esc = String(UnicodeScalar(UInt8(Self.escape)))
    promptBuffer = strdup(palette.isEnabled ? esc + "\u{1B}[0m" + esc + prompt : prompt)
    return promptBuffer
  }

  // libedit only redraws the whole line on each key while the right prompt is non-empty,
  // so a space stands in when there is no hint.
  private func hintCString() -> UnsafeMutablePointer<CChar>? {
    free(hintBuffer)
    var text = " "
    let line = currentLine()
    // libedit leaves out a right prompt that does not fit, so a long hint is cut to fit.
    // Without colour nothing dims the hint, so it is labelled: `[n] [<item> ...]` alone at
    // the line's end reads like text typed there.
    let label = palette.isEnabled ? "" : Self.plainHintLabel
    // A suggestion after the cursor shows what would come; the usage hint gives way to it, as
    // fish shows one or the other.
    let suggested = suggestion() != nil
    let room =
      Int(sr_el_columns(editLine)) - DisplayWidth.of(prompt) - DisplayWidth.of(line) - 4 - label.count
    // After a word marked wrong (`LIST dishs`) no hint: what to type next would read as if the
    // word were taken. Only where words are marked, since nothing else would say why it went.
    let markedWrong = palette.isEnabled && (highlight?(line).contains { $0.style == .unknown } ?? false)
    if !hintHidden, !suggested, !markedWrong, room > 4, let full = hint(line) {
      let hint = DisplayWidth.truncate(full, to: room)
      let esc = String(UnicodeScalar(UInt8(Self.escape)))
      text =
        palette.isEnabled ? esc + "\u{1B}[2m" + esc + hint + esc + "\u{1B}[0m" + esc + " " : label + hint
    }
    hintText = text
    hintBuffer = strdup(text)
    return hintBuffer
  }

  private func currentLine() -> String {
    guard let info = el_line(editLine)?.pointee, let buffer = info.buffer, let last = info.lastchar
    else { return "" }
    return text(from: buffer, count: last - buffer)
  }

  private func lineBeforeCursor() -> String {
    guard let info = el_line(editLine)?.pointee, let buffer = info.buffer, let cursor = info.cursor
    else { return "" }
    return text(from: buffer, count: cursor - buffer)
  }

  private func text(from buffer: UnsafePointer<CChar>, count: Int) -> String {
    guard count > 0 else { return "" }
    let bytes = UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self)
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }

  /// Waits for a key on stdin while serving the watched socket; decodes UTF-8 into the wide
  /// character libedit expects. 1 for a character, 0 at end of input, -1 on error.
  private func readCharacter(into out: UnsafeMutablePointer<wchar_t>?) -> Int32 {
    if hintText != hintDrawnWhole {
      hintDrawnWhole = hintText
      printAbove("")
    }
    // Bytes read ahead are the rest of a key libedit has not finished reading: it has drawn
    // nothing since, so there is nothing to draw over.
    if !pending.isEmpty {
      eraseOverlay()
      return decodeCharacter(into: out)
    }
    while true {
      drawOverlay()
      var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0)]
      if let watched { fds.append(pollfd(fd: watched, events: Int16(POLLIN), revents: 0)) }
      let ready = poll(&fds, nfds_t(fds.count), timeout())
      if ready < 0 {
        if errno == EINTR { continue }
        return -1
      }
      if ready == 0 {
        onTimeout()
        continue
      }
      if fds.count > 1, fds[1].revents != 0 {
        onReadable()
      }
      guard fds[0].revents != 0 else { continue }
      eraseOverlay()
      return decodeCharacter(into: out)
    }
  }

  /// Reads one UTF-8 character, from what was read ahead first; a cursor key's escape
  /// sequence comes out as its control key (see `CursorKey`).
  private func decodeCharacter(into out: UnsafeMutablePointer<wchar_t>?) -> Int32 {
    guard var lead = nextByte() else { return 0 }
    if lead == 0x1B, pending.isEmpty { lead = readCursorKey() ?? lead }
    // Ctrl-R replaces the line: an Up/Down walk before it is over, even when the search lands
    // on the line the walk showed (Down then stepped back to the walk's empty start).
    if lead == 0x12 { search = nil }
    let length =
      lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
    var bytes = [lead]
    while bytes.count < length, let next = nextByte() { bytes.append(next) }
    let scalar = String(decoding: bytes, as: UTF8.self).unicodeScalars.first ?? "\u{FFFD}"
    out?.pointee = wchar_t(bitPattern: scalar.value)
    return 1
  }

  /// After an ESC, the rest of a cursor key's sequence, read only if it follows at once: `[`
  /// or `O`, then up to the final byte (`[C`, `[1;5D`, `[3~`). Anything else read is kept for
  /// the next characters.
  private func readCursorKey() -> UInt8? {
    var sequence: [UInt8] = []
    while sequence.count < 8 {
      var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0)]
      guard poll(&fds, 1, 50) == 1, let byte = readByte() else { break }
      sequence.append(byte)
      // Alt and a letter is ESC and that letter; no second byte is coming.
      if sequence.count == 1, byte != UInt8(ascii: "["), byte != UInt8(ascii: "O") { break }
      if sequence.count == 2, sequence[0] == UInt8(ascii: "O") { break }
      if sequence.count >= 2, CursorKey.isFinal(byte) { break }
    }
    switch CursorKey.key(for: sequence) {
    case .control(let byte)?: return byte
    case let key?:
      // Done by `runPrivateKey` when libedit runs the private key, after ending a search.
      privateKey = key
      return Self.privateKeyByte
    case nil:
      pending += sequence
      return nil
    }
  }

  /// A word motion or Delete, asked for by a cursor key (see `CursorKey`).
  private func runPrivateKey() -> UInt8 {
    let key = privateKey
    privateKey = .ignored
    guard let info = el_line(editLine)?.pointee, let buffer = info.buffer, let cursor = info.cursor,
      let last = info.lastchar
    else { return UInt8(CC_ERROR) }
    let line = Array(text(from: buffer, count: last - buffer).unicodeScalars)
    let at = text(from: buffer, count: cursor - buffer).unicodeScalars.count
    switch key {
    case .wordRight where suggestion() != nil:
      // At the end of the line, with a suggestion shown: its next word, as fish's Alt-F.
      let rest = Array((suggestion() ?? "").unicodeScalars)
      var word = ""
      word.unicodeScalars.append(contentsOf: rest[..<CursorKey.target(of: .wordRight, in: rest, from: 0)])
      _ = el_insertstr(editLine, word)
      return UInt8(CC_REFRESH)
    case .wordLeft, .wordRight:
      _ = el_cursor(editLine, Int32(CursorKey.target(of: key, in: line, from: at) - at))
      return UInt8(CC_CURSOR)
    case .deleteForward:
      guard at < line.count else { return UInt8(CC_NORM) }
      _ = el_cursor(editLine, 1)
      el_deletestr(editLine, 1)
      return UInt8(CC_REFRESH)
    case .control, .ignored:
      return UInt8(CC_NORM)
    }
  }

  private func nextByte() -> UInt8? {
    pending.isEmpty ? readByte() : pending.removeFirst()
  }

  private func readByte() -> UInt8? {
    var byte: UInt8 = 0
    while true {
      let count = Glibc.read(0, &byte, 1)
      if count == 1 { return byte }
      if count < 0 && errno == EINTR { continue }
      return nil
    }
  }

  private func completeWord() -> UInt8 {
    let completion = complete(lineBeforeCursor())
    let candidates = completion.candidates
    guard !candidates.isEmpty else { return UInt8(CC_REFRESH_BEEP) }
    let partialLength = Int32(completion.partial.unicodeScalars.count)
    if candidates.count == 1 {
      let word = candidates[0]
      el_deletestr(editLine, partialLength)
      // A key= or a URL's scheme goes on without a space; any other word is done.
      _ = el_insertstr(editLine, word.hasSuffix("=") || word.hasSuffix("/") ? word : word + " ")
      return UInt8(CC_REFRESH)
    }
    let common = Completer.commonPrefix(candidates)
    if common.unicodeScalars.count > completion.partial.unicodeScalars.count {
      el_deletestr(editLine, partialLength)
      _ = el_insertstr(editLine, common)
      return UInt8(CC_REFRESH)
    }
    TerminalOutput.write("\n" + columns(candidates))
    return UInt8(CC_REDISPLAY)
  }

  private func columns(_ words: [String]) -> String {
    let width = (words.map { DisplayWidth.of($0) }.max() ?? 0) + 2
    let perLine = max(1, Int(sr_el_columns(editLine)) / max(width, 1))
    var out = ""
    for (index, word) in words.enumerated() {
      let last = index % perLine == perLine - 1 || index == words.count - 1
      out += last ? word + "\n" : DisplayWidth.padRight(word, to: width)
    }
    return out
  }

  // MARK: - Suggestions and prefix search

  /// History, oldest first, as last read.
  private var historyLines: [String] {
    if let historyCache { return historyCache }
    let lines = entries
    historyCache = lines
    return lines
  }

  /// What to draw dimmed after the cursor: the rest of the newest history line starting with
  /// the line. Only with colour, since without it nothing tells a suggestion from typed text
  /// (and what is not shown is not taken); only with the cursor at the line's end; never
  /// during Ctrl-R, whose search line libedit keeps in the buffer after a newline, nor on a
  /// line Up or Down brought back.
  private func suggestion() -> String? {
    guard palette.isEnabled, let info = el_line(editLine)?.pointee, let cursor = info.cursor,
      let last = info.lastchar, cursor == last
    else { return nil }
    let line = currentLine()
    // A line Up brought back is a history line already; a second one after it would be noise.
    if let search, search.shown == line, line != search.typed { return nil }
    return Autosuggestion.rest(of: line, history: historyLines)
  }

  /// After libedit has drawn the line: the line in colour and the suggestion, once per
  /// redraw. Not during Ctrl-R, whose search line libedit keeps in the buffer.
  private func drawOverlay(suggesting: Bool = true) {
    guard !overlayDrawn else { return }
    overlayDrawn = true
    let line = currentLine()
    guard !line.contains("\n") else { return }
    let overlay = LineOverlay(columns: max(Int(sr_el_columns(editLine)), 1), prompt: prompt)
    var bytes = ""
    if palette.isEnabled, let highlight {
      let spans = highlight(line)
      let styled = spans.contains { $0.style != nil }
      if styled || lineStyled { bytes += overlay.recoloured(spans, beforeCursor: lineBeforeCursor()) }
      lineStyled = styled
    }
    if suggesting, let rest = suggestion() {
      let drawn = overlay.suggestion(rest, after: line)
      bytes += drawn
      suggestionDrawn = !drawn.isEmpty
    }
    TerminalOutput.write(bytes)
  }

  /// Before a key reaches libedit: the suggestion erased, the cursor being at the line's end.
  private func eraseOverlay() {
    overlayDrawn = false
    guard suggestionDrawn else { return }
    suggestionDrawn = false
    TerminalOutput.write("\u{1B}[K")
  }

  /// Right and Ctrl-F: at the end of the line they take the suggestion shown, as in fish;
  /// elsewhere they move one character, as libedit's own binding did.
  private func forward() -> UInt8 {
    if let rest = suggestion() {
      _ = el_insertstr(editLine, rest)
      return UInt8(CC_REFRESH)
    }
    guard let info = el_line(editLine)?.pointee, let cursor = info.cursor, let last = info.lastchar,
      cursor < last
    else { return UInt8(CC_NORM) }
    _ = el_cursor(editLine, 1)
    return UInt8(CC_CURSOR)
  }

  /// End and Ctrl-E: the whole suggestion, else the end of the line.
  private func toEnd() -> UInt8 {
    if let rest = suggestion() {
      _ = el_insertstr(editLine, rest)
      return UInt8(CC_REFRESH)
    }
    guard let info = el_line(editLine)?.pointee, let cursor = info.cursor, let last = info.lastchar else {
      return UInt8(CC_ERROR)
    }
    let left = text(from: cursor, count: last - cursor).unicodeScalars.count
    _ = el_cursor(editLine, Int32(left))
    return UInt8(CC_CURSOR)
  }

  /// Up and Down: the next older or newer history line starting with what was typed (every
  /// line when nothing was), the cursor at its end.
  private func historyStep(older: Bool) -> UInt8 {
    let line = currentLine()
    if search?.shown != line { search = PrefixSearch(typed: line, history: historyLines) }
    guard var walk = search else { return UInt8(CC_ERROR) }
    let moved = older ? walk.older() : walk.newer()
    search = walk
    // At the oldest match Up beeps, as libedit's did at the oldest line; Down at the typed
    // line stays quiet.
    guard moved else { return UInt8(older ? CC_REFRESH_BEEP : CC_NORM) }
    replaceLine(with: walk.shown)
    return UInt8(CC_REFRESH)
  }

  private func replaceLine(with text: String) {
    guard let info = el_line(editLine)?.pointee, let buffer = info.buffer, let cursor = info.cursor,
      let last = info.lastchar
    else { return }
    _ = el_cursor(editLine, Int32(self.text(from: cursor, count: last - cursor).unicodeScalars.count))
    el_deletestr(editLine, Int32(self.text(from: buffer, count: last - buffer).unicodeScalars.count))
    _ = el_insertstr(editLine, text)
  }

  // MARK: - Keys that end a read

  // Redraws the line without its hint, so scrollback does not keep it, and ends the read.
  private func accept() -> UInt8 {
    guard let info = el_line(editLine)?.pointee, let cursor = info.cursor, let last = info.lastchar
    else { return UInt8(CC_ERROR) }
    _ = el_cursor(editLine, Int32(text(from: cursor, count: last - cursor).unicodeScalars.count))
    hintHidden = true
    printAbove("")
    // Scrollback keeps the line in its colours, without the suggestion.
    drawOverlay(suggesting: false)
    accepted = true
    return UInt8(CC_NEWLINE)
  }

  private func interrupt() -> UInt8 {
    guard let info = el_line(editLine)?.pointee, let buffer = info.buffer,
      let cursor = info.cursor, let last = info.lastchar
    else { return UInt8(CC_ERROR) }
    let after = text(from: cursor, count: last - cursor).unicodeScalars.count
    let all = text(from: buffer, count: last - buffer).unicodeScalars.count
    _ = el_cursor(editLine, Int32(after))
    hintHidden = true
    printAbove("")
    // libedit believes the cursor is still on the line's last row, and its redisplay first
    // goes up that many rows to clear them; as many extra newlines keep it off the old line.
    let columns = max(Int(sr_el_columns(editLine)), 1)
    let rows = (DisplayWidth.of(prompt) + DisplayWidth.of(lineBeforeCursor())) / columns
    el_deletestr(editLine, Int32(all))
    hintHidden = false
    TerminalOutput.write("^C\n" + String(repeating: "\n", count: rows))
    return UInt8(CC_REDISPLAY)
  }
}
