import Foundation
import StockroomTransport

/// An example session printed in Protocol.md or README.md, as the test runs it: the lines a
/// client sends on each connection and the lines the document says the server answers.
///
/// A document marks a session with the info string `session` on its fenced block, which a
/// reader sees as a plain block. In it, `> ` starts a line the client typed, after the previous
/// reply; every other line came from the server. A `session` block with no `> ` line shows
/// what `printf '...' | nc ...` commands in the fenced block right before it printed: each
/// command is run with the real `nc` and its flags, and the block holds their output one
/// after the other, each starting at its greeting.
///
/// A typed session may need a shop in some state first. An HTML comment right before the block,
/// which a reader of the rendered page does not see, gives requests sent first on the same
/// connection, each of which must answer OK; their replies are not part of the example:
///
///     <!-- session setup:
///     REGISTER alice "alice's passphrase"
///     -->
///
/// Failure messages name the block, never a request: examples carry passwords.
struct DocSession: CustomStringConvertible {
  /// One connection of the example: what it sends, and what the document says it is answered.
  struct Exchange {
    /// Sent first, each answered OK, not shown.
    var setup: [String] = []
    var requests: [String]
    /// Server lines, the greeting included when the document shows it.
    var replies: [String]
    var showsGreeting: Bool
    /// The flags of the `nc` a piped session's command runs (`-q1`).
    var netcatFlags: [String] = []
  }

  enum Pacing {
    /// Each line typed after the reply to the one before (`> ` lines).
    case typed
    /// Every line fed to the real `nc` at once (`printf ... | nc -q1`).
    case piped
  }

  var file: String
  /// The 1-based line of the block's opening fence, for failure messages.
  var line: Int
  /// The heading the block sits under.
  var heading: String
  var pacing: Pacing
  var connections: [Exchange]

  var description: String { "\(file):\(line) (\(heading))" }

  struct Malformed: Error, CustomStringConvertible {
    var description: String
  }

  private struct Block {
    var info: String
    var setup: [String]
    var line: Int
    var heading: String
    var lines: [String]
  }

  static let marker = "session"

  /// Every session block of `text`, in order.
  static func all(in text: String, file: String) throws -> [DocSession] {
    let blocks = fencedBlocks(in: text)
    var sessions: [DocSession] = []
    for (index, block) in blocks.enumerated() where block.info == marker {
      var session = DocSession(file: file, line: block.line, heading: block.heading, pacing: .typed, connections: [])
      if block.lines.contains(where: { $0.hasPrefix("> ") }) {
        session.connections = [typed(block.lines)]
        session.connections[0].setup = block.setup
      } else {
        guard block.setup.isEmpty else { throw Malformed(description: "\(session): setup before a piped session") }
        guard index > 0 else { throw Malformed(description: "\(session): no commands before the output") }
        session.pacing = .piped
        session.connections = try piped(commands: blocks[index - 1].lines, output: block.lines, at: session)
      }
      sessions.append(session)
    }
    return sessions
  }

  private static func typed(_ lines: [String]) -> Exchange {
    Exchange(
      requests: lines.filter { $0.hasPrefix("> ") }.map { String($0.dropFirst(2)) },
      replies: lines.filter { !$0.hasPrefix("> ") },
      showsGreeting: lines.first.map { !$0.hasPrefix("> ") } ?? false)
  }

  private static func piped(commands: [String], output: [String], at session: DocSession) throws -> [Exchange] {
    let printed = commands.filter { $0.hasPrefix("printf ") }
    let sent = try printed.map { try printfLines($0, at: session) }
    let flags = try printed.map { try netcatFlags($0, at: session) }
    var outputs: [[String]] = []
    for line in output {
      if line.hasPrefix("OK stockroomd ") || outputs.isEmpty { outputs.append([]) }
      outputs[outputs.count - 1].append(line)
    }
    guard sent.count == outputs.count else {
      throw Malformed(description: "\(session): \(sent.count) printf commands but \(outputs.count) greetings")
    }
    return sent.indices.map {
      Exchange(requests: sent[$0], replies: outputs[$0], showsGreeting: true, netcatFlags: flags[$0])
    }
  }

  /// `-q1` from `... | nc -q1 127.0.0.1 7878`: the words between `nc` and the host and port,
  /// which the test replaces with its server's.
  private static func netcatFlags(_ command: String, at session: DocSession) throws -> [String] {
    guard let pipe = command.range(of: "| nc ") else {
      throw Malformed(description: "\(session): a printf command is not piped into nc")
    }
    let words = command[pipe.upperBound...].split(separator: " ").map(String.init)
    guard words.count >= 2, words[words.count - 2] == "127.0.0.1" else {
      throw Malformed(description: "\(session): an nc command is not given 127.0.0.1 and a port")
    }
    return Array(words.dropLast(2))
  }

  /// The lines `printf 'A\nB\n'` writes: the single-quoted format, split at its `\n`s. Other
  /// escapes and `%` would need printf itself, so a document that uses them is refused.
  private static func printfLines(_ command: String, at session: DocSession) throws -> [String] {
    let afterQuote = command.drop { $0 != "'" }.dropFirst()
    guard let end = afterQuote.firstIndex(of: "'") else {
      throw Malformed(description: "\(session): a printf command has no single-quoted format")
    }
    let format = String(afterQuote[..<end])
    guard format.hasSuffix("\\n") else {
      throw Malformed(description: "\(session): a printf format does not end its last line")
    }
    let lines = format.dropLast(2).components(separatedBy: "\\n")
    for line in lines where line.contains("\\") || line.contains("%") {
      throw Malformed(description: "\(session): a printf format has an escape other than \\n, or a %")
    }
    return lines
  }

  private static func fencedBlocks(in text: String) -> [Block] {
    var blocks: [Block] = []
    var open: Block? = nil
    var heading = ""
    /// Setup lines from a comment still waiting for its block; nil outside one.
    var comment: [String]? = nil
    var setup: [String] = []
    for (index, line) in text.components(separatedBy: "\n").enumerated() {
      if open == nil, comment != nil {
        if line == "-->" {
          setup = comment ?? []
          comment = nil
        } else {
          comment?.append(line)
        }
      } else if line.hasPrefix("```") {
        if let block = open {
          blocks.append(block)
          open = nil
        } else {
          let info = line.dropFirst(3).trimmingCharacters(in: .whitespaces)
          open = Block(info: info, setup: setup, line: index + 1, heading: heading, lines: [])
          setup = []
        }
      } else if open != nil {
        open?.lines.append(line)
      } else if line.hasPrefix("<!-- session setup:") {
        comment = []
      } else if !line.isEmpty {
        // A setup belongs to the block right after it, with only blank lines between.
        setup = []
        if line.hasPrefix("#") { heading = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces) }
      }
    }
    return blocks
  }
}
