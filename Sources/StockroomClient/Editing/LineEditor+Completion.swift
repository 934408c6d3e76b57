import CLibedit
import CStockroomShims

/// Tab: the word completed, as far as the candidates agree, or the candidates listed.
extension LineEditor {
  func completeWord() -> UInt8 {
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
}
