import StockroomProtocol

/// `LOGIN alice` with the password left off: the REPL asks for it with echo off rather than
/// send the line short, so the password is neither on screen nor in scrollback. Which words
/// are passwords comes from the command table.
enum MissingPasswords {
  /// A line to send, or why nothing is sent.
  enum Outcome: Equatable {
    case line(String)
    case refused(String)
  }

  /// The line with each password it left off asked for and put in its place; the line as it
  /// was when it leaves none off. Refused when a prompt was cancelled or a new password was
  /// typed differently twice.
  static func askedFor(in line: String) -> Outcome {
    guard let words = try? Tokenizer.words(in: line), let first = words.first,
      var spec = CommandTable.command(named: first.text)
    else { return .line(line) }
    var given = words.dropFirst()
    if !spec.subcommands.isEmpty {
      guard let word = given.first, let sub = spec.subcommand(named: word.text) else { return .line(line) }
      spec = sub
      given = given.dropFirst()
    }
    let positional = given.filter { !$0.isOption }.map(\.value)
    let missing = spec.arguments.dropFirst(positional.count)
    guard !missing.isEmpty, missing.allSatisfy({ $0.kind == .password }) else { return .line(line) }
    var asked: [String] = []
    for argument in missing {
      let label =
        argument.name == "password"
        ? "Password" + (positional.last.map { " for \($0)" } ?? "") + ": "
        : argument.name.prefix(1).uppercased() + argument.name.dropFirst() + " password: "
      // A password being set (REGISTER, PASSWD's new one, USER ADD) is asked twice: unseen, a
      // typo would otherwise become the password. Checking one (LOGIN, PASSWD's old) is not.
      let setsPassword = !spec.flags.contains(.connection) && argument.name != "old"
      do {
        let password = try PasswordPrompt.read(prompt: label)
        // The server's rule, checked before asking again: typing a refused password twice
        // only to be told it is too short wastes the second go.
        if setsPassword, let problem = problem(password.reveal) {
          return .refused("\(problem); nothing sent")
        }
        if setsPassword, try PasswordPrompt.read(prompt: "Again: ") != password {
          return .refused("the two passwords differ; nothing sent")
        }
        asked.append(Quoting.quote(password.reveal))
      } catch {
        return .refused("\(error); nothing sent")
      }
    }
    // The command words as typed, the positional words requoted with the answers after them,
    // then the options, which mean the same wherever they stand.
    let options = given.filter(\.isOption).map(\.text)
    let head = line.split(separator: " ").prefix(words.count - given.count).joined(separator: " ")
    let body = positional.map { Quoting.quote($0) } + asked + options
    return .line(([head] + body).joined(separator: " "))
  }

  /// Protocol.md's rule for a password being set (8 to 1,024 bytes, any text), in the
  /// server's words; nil when it passes.
  static func problem(_ password: String) -> String? {
    let bytes = password.utf8.count
    if bytes < 8 { return "a password needs at least 8 bytes" }
    if bytes > 1024 { return "a password may have at most 1,024 bytes" }
    return nil
  }
}
