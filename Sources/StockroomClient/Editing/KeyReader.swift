#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The keys typed at the prompt, read from stdin one character at a time for libedit: UTF-8
/// decoded, and a cursor key's escape sequence turned into the control key libedit is bound
/// to, or into the editor's private key for what no control key does (see `CursorKey`).
struct KeyReader {
  /// Ctrl-^, which emacs mode leaves unused: a key no search takes as text, so it ends one.
  static let privateKeyByte: UInt8 = 0x1E

  /// Bytes read ahead after an ESC that turned out not to be a cursor key.
  private var pending: [UInt8] = []
  /// What the private key does next time libedit runs it.
  private var privateKey = CursorKey.ignored

  /// Bytes are waiting: the rest of a key libedit has not finished reading.
  var hasPending: Bool { !pending.isEmpty }

  /// Reads one UTF-8 character, from what was read ahead first; nil at end of input.
  mutating func next() -> Unicode.Scalar? {
    guard var lead = nextByte() else { return nil }
    if lead == 0x1B, pending.isEmpty { lead = readCursorKey() ?? lead }
    let length =
      lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
    var bytes = [lead]
    while bytes.count < length, let next = nextByte() { bytes.append(next) }
    return String(decoding: bytes, as: UTF8.self).unicodeScalars.first ?? "\u{FFFD}"
  }

  /// What the private key stands for this time; it stands for nothing after.
  mutating func takePrivateKey() -> CursorKey {
    defer { privateKey = .ignored }
    return privateKey
  }

  /// After an ESC, the rest of a cursor key's sequence, read only if it follows at once: `[`
  /// or `O`, then up to the final byte (`[C`, `[1;5D`, `[3~`). Anything else read is kept for
  /// the next characters.
  private mutating func readCursorKey() -> UInt8? {
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
      // Done by `LineEditor.runPrivateKey` when libedit runs the private key, after ending a
      // search.
      privateKey = key
      return Self.privateKeyByte
    case nil:
      pending += sequence
      return nil
    }
  }

  private mutating func nextByte() -> UInt8? {
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
}
