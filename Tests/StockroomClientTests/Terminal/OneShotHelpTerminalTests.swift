import Foundation
import StockroomClient
import StockroomTestSupport
import Testing

/// `stockroom HELP ...` from the shell, in a real terminal (tmux) and into a file: the REPL's
/// HELP, made to fit, never the generic table of the server's rows.
@Suite("One-shot HELP is the REPL's HELP, wrapped to fit", .timeLimit(.minutes(30)))
struct OneShotHelpTerminalTests {
  /// Runs `stockroom -p PORT ARGUMENTS` in a terminal `width` columns wide and returns the
  /// lines it printed (or sends them to the file `stdout`). It runs after a first short program: output in a pane's first moments
  /// can lose its top row to tmux, which would hide the very line under test.
  private func run(_ arguments: [String], width: Int, stdout: String? = nil) throws -> [String] {
    var printed: [String] = []
    try withTerminal { server, terminal in
      let command =
        try terminal.commandLine(["-p", "\(server.port)"] + arguments)
        + (stdout.map { " > " + Tmux.shellQuote($0) } ?? "") + "; echo \"[help exited with status $?]\""
      try terminal.start(["--version"], afterwards: command, width: width, rows: 40)
      let screen = try terminal.waitFor(text: "[help exited with status 0]")
      let lines = TerminalSession.lines(screen)
      let start = (lines.firstIndex { $0.hasPrefix("[stockroom exited") } ?? -1) + 1
      printed = Array(lines[start...].prefix { !$0.hasPrefix("[help exited") })
    }
    return printed
  }

  @Test("HELP ORDER in an 80-column terminal: usage, summary, options and examples, each line within 80")
  func command() throws {
    let lines = try run(["HELP", "ORDER"], width: 80)
    let screen = lines.joined(separator: "\n")
    #expect(lines.first?.hasPrefix("ORDER <item> [n]") == true, "\(screen)")
    #expect(lines.contains("examples") && lines.contains("  ORDER 딸바쥬스 2 galbi_jjim"), "\(screen)")
    // Nothing the terminal had to wrap: every row but a header is indented text of ours.
    for line in lines.dropFirst() where !line.isEmpty && !["options", "examples"].contains(line) {
      #expect(line.hasPrefix("  "), "a row the terminal broke: '\(line)'\n\(screen)")
    }
  }

  @Test("HELP @shop at 60 columns wraps summaries at spaces under their column")
  func group() throws {
    let lines = try run(["HELP", "@shop"], width: 60)
    let screen = lines.joined(separator: "\n")
    #expect(lines.first == "shop", "\(screen)")
    #expect(lines.contains { $0.hasPrefix("  ORDER ") }, "\(screen)")
    for line in lines.dropFirst() {
      #expect(line.hasPrefix("  "), "a row the terminal broke: '\(line)'\n\(screen)")
      #expect(DisplayWidth.of(line) <= 60)
    }
  }

  @Test("--human HELP PRODUCT into a file: 80 columns, as docs/client.md says")
  func intoAFile() throws {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("help-\(UUID().uuidString).txt").path
    defer { try? FileManager.default.removeItem(atPath: output) }
    _ = try run(["--human", "HELP", "PRODUCT"], width: 120, stdout: output)
    let text = try String(contentsOfFile: output, encoding: .utf8)
    let lines = text.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasPrefix("PRODUCT ") == true, "\(text)")
    #expect(lines.contains("subcommands"), "\(text)")
    let widest = lines.map { DisplayWidth.of($0) }.max() ?? 0
    #expect(widest <= 80, "a line of \(widest) columns:\n\(text)")
  }
}
