import CLibedit
import CStockroomShims

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Keys read for libedit while the watched socket is served and the retry timer runs, and
/// the private key's word motions.
extension LineEditor {
  /// Waits for a key on stdin while serving the watched socket; decodes UTF-8 into the wide
  /// character libedit expects. 1 for a character, 0 at end of input, -1 on error.
  func readCharacter(into out: UnsafeMutablePointer<wchar_t>?) -> Int32 {
    if hintText != hintDrawnWhole {
      hintDrawnWhole = hintText
      printAbove("")
    }
    // Bytes read ahead are the rest of a key libedit has not finished reading: it has drawn
    // nothing since, so there is nothing to draw over.
    if keys.hasPending {
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

  /// One character from `keys`, as libedit takes it.
  private func decodeCharacter(into out: UnsafeMutablePointer<wchar_t>?) -> Int32 {
    guard let scalar = keys.next() else { return 0 }
    // Ctrl-R replaces the line: an Up/Down walk before it is over, even when the search lands
    // on the line the walk showed (Down then stepped back to the walk's empty start).
    if scalar == "\u{12}" { search = nil }
    out?.pointee = wchar_t(bitPattern: scalar.value)
    return 1
  }

  /// A word motion or Delete, asked for by a cursor key (see `CursorKey`).
  func runPrivateKey() -> UInt8 {
    let key = keys.takePrivateKey()
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
}
