import StockroomProtocol

/// `:watch SECONDS COMMAND` as typed: what to repeat and how often, or the one thing wrong
/// with it, each mistake with its own sentence.
struct WatchRequest: Equatable {
  var seconds: Double
  var command: String
  /// The command changes the shop (the command table's write flag), so every round would change
  /// it again: the REPL asks before repeating it, as a write is never repeated unawares.
  var writes: Bool

  struct Refusal: Error, Equatable, CustomStringConvertible {
    var description: String
  }

  static let example = "as in :watch 2 STOCK banana"

  /// The words after `:watch`.
  static func parse(_ words: [String]) -> Result<WatchRequest, Refusal> {
    guard let first = words.first else {
      return .failure(Refusal(description: "usage: :watch SECONDS COMMAND, a server command, \(example)"))
    }
    guard let seconds = Double(first) else {
      return .failure(Refusal(description: ":watch takes the seconds first, and '\(first)' is no number; \(example)"))
    }
    guard seconds.isFinite, seconds > 0 else {
      return .failure(Refusal(description: ":watch needs more than 0 seconds between rounds, not '\(first)'"))
    }
    let command = words.dropFirst().joined(separator: " ")
    guard !command.isEmpty else {
      return .failure(Refusal(description: "nothing to repeat after \(first): give a server command, \(example)"))
    }
    if LocalCommand.parse(command) != nil {
      let word = words[1]
      return .failure(
        Refusal(description: "'\(word)' is answered here, not by the server; :watch repeats server commands"))
    }
    return .success(WatchRequest(seconds: seconds, command: command, writes: writes(command)))
  }

  /// The command's row in the command table, its subcommand's where it has one, says whether
  /// it writes; a line the table does not know is left to the server, which refuses it.
  private static func writes(_ command: String) -> Bool {
    guard let words = try? Tokenizer.words(in: command), let first = words.first,
      var spec = CommandTable.command(named: first.text)
    else { return false }
    if !spec.subcommands.isEmpty, let second = words.dropFirst().first, let sub = spec.subcommand(named: second.text) {
      spec = sub
    }
    return spec.isWrite
  }
}
