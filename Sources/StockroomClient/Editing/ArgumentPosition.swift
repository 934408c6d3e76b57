import StockroomProtocol

/// Which of a command's arguments the next word fills, found by walking the words already
/// typed. An optional argument a word cannot be (`ORDER kiwi mango`: `mango` is no `[n]`) is
/// skipped, so counting words alone would put the next one in the wrong place.
struct ArgumentPosition {
  /// Where in `spec.arguments` the next word goes; `spec.arguments.count` when nothing more
  /// is taken (or, for a repeating command, when the next round starts).
  let index: Int
  let spec: CommandSpec

  init(spec: CommandSpec, words: [String]) {
    self.spec = spec
    var index = 0
    for word in words { index = Self.place(word, at: index, in: spec).next }
    self.index = index
  }

  /// The argument `word` fills when the next word would go at `index`, nil when the command
  /// takes no more, and where the word after it goes.
  static func place(_ word: String, at index: Int, in spec: CommandSpec) -> (argument: Argument?, next: Int) {
    let arguments = spec.arguments
    guard !arguments.isEmpty else { return (nil, index) }
    var index = index
    // Skip optional arguments this word cannot be; a repeating command goes round again.
    var skipped = 0
    while true {
      if index >= arguments.count {
        guard spec.repeats else { break }
        index = 0
      }
      let argument = arguments[index]
      guard argument.isOptional, !Self.fits(word, argument.kind), skipped < arguments.count else { break }
      index += 1
      skipped += 1
    }
    return (index < arguments.count ? arguments[index] : nil, index + 1)
  }

  /// The arguments the next word may be: the expected one, and while that is optional the
  /// ones after it (`ORDER kiwi ` takes `[n]` or the next `<item>`).
  var candidates: [Argument] {
    let arguments = spec.arguments
    guard !arguments.isEmpty else { return [] }
    var out: [Argument] = []
    var position = index
    for _ in 0..<arguments.count {
      if position >= arguments.count {
        guard spec.repeats else { break }
        position = 0
      }
      out.append(arguments[position])
      guard arguments[position].isOptional else { break }
      position += 1
    }
    return out
  }

  /// True while a required argument has not been given yet.
  var needsArgument: Bool {
    index < spec.arguments.count && !spec.arguments[index].isOptional
  }

  /// Whether a word could be an argument of this kind; only counts are told apart, since
  /// any other word may be a name the server knows.
  static func fits(_ word: String, _ kind: ArgumentKind) -> Bool {
    switch kind {
    case .quantity, .number: return Int(word) != nil
    case .delta: return Int(word.hasPrefix("+") ? String(word.dropFirst()) : word) != nil
    default: return true
    }
  }
}
