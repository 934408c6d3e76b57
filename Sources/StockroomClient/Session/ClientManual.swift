import StockroomProtocol
import StockroomText

/// `stockroom`'s reference, written from its option table (`ClientOptionTable`), its config
/// keys (`ClientConfigKey`) and the command table: docs/reference/stockroom.md and the man page
/// `stockroom(1)`. A test keeps the committed files equal to what this writes.
public enum ClientManual {
  public static var markdown: String {
    let options = ClientOptionTable.all.map { [MarkdownTable.code($0.synopsis), $0.help] }
    let configKeys = ClientConfigKey.all.map { [MarkdownTable.code("\($0.name) = \($0.value)"), $0.help] }
    let repl = LocalCommand.summaries.map { [MarkdownTable.code($0.usage), $0.summary] }
    let keys = EditingKeys.summaries.map { [$0.key, $0.summary] }
    return """
      # `stockroom` options and config keys

      <!-- Generated from the option table; do not edit. Regenerate with: \(ManualPage.regenerateCommand) -->

      Every option and config-file key of the `stockroom` client, written from its tables
      (`Sources/StockroomClient/Session/ClientOptionTable.swift` and `ClientConfigKey.swift`); a
      test fails when this file and the tables disagree. How to use the client is in
      [client.md](../client.md); the same reference is `man stockroom`, and the commands are in
      [Protocol.md](../../Protocol.md#commands-at-a-glance).

      ## Options

      \(MarkdownTable.text(header: ["Option", "What"], rows: options))

      ## Config file keys

      `~/.config/stockroom/config` (or `$XDG_CONFIG_HOME/stockroom/config`), one `key = value` a
      line, `#` comments. The environment overrides the file, and the command line overrides
      both; there is no password key.

      \(MarkdownTable.text(header: ["Key", "What"], rows: configKeys))

      ## The REPL

      \(EditingKeys.overview.replacingOccurrences(of: "\n", with: " "))

      \(MarkdownTable.text(header: ["Client command", "What"], rows: repl))

      \(MarkdownTable.text(header: ["Key", "What"], rows: keys))

      ## `stockroom --help`

      ```
      \(ClientOptions.usage)
      ```

      """
  }

  public static var manPage: String {
    var page = ManualPage(name: "stockroom", section: 1, manual: "Stockroom Manual", release: ClientOptions.versionLine)
    page.add("Name", .paragraph("stockroom - the Stockroom client: a REPL, one-shot commands and a live board"))
    page.add(
      "Synopsis",
      .verbatim(["stockroom [options] [command ...]", "stockroom [options] top", "command | stockroom [options]"]))
    page.add(
      "Description",
      .paragraph(
        """
        stockroom talks to stockroomd(8). With a command it runs it once and exits 0 on OK, 1 on
        ERR, 2 when the server cannot be reached. With stdin not a terminal it sends each line,
        pipelined. Otherwise it starts the REPL: history, Tab completion, hints, live WATCH
        events, and the client's own : commands (:help lists them). top is the live board.
        """))
    page.add("Options", .entries(ClientOptionTable.all.map { ($0.synopsis, $0.help) }))
    page.add(
      "Configuration",
      .paragraph(
        """
        ~/.config/stockroom/config (or $XDG_CONFIG_HOME/stockroom/config): key = value lines,
        # comments. The environment overrides the file, and the command line overrides both.
        """),
      .entries(ClientConfigKey.all.map { ("\($0.name) = \($0.value)", $0.help) }))
    page.add(
      "REPL",
      .paragraph(EditingKeys.overview),
      .paragraph("The client's own commands, as :help lists them:"),
      .entries(LocalCommand.summaries.map { ($0.usage, $0.summary) }),
      .paragraph("Keys:"),
      .entries(EditingKeys.summaries.map { ($0.key, $0.summary) }))
    page.add(
      "Commands",
      .paragraph("The server's commands, from its command table; HELP COMMAND in the REPL says more."),
      .entries(CommandTable.allWithPaths.map { ($0.spec.usage(path: $0.path), $0.spec.summary) }))
    addClosing(to: &page)
    return page.roff
  }

  /// The sections after the options: the environment, files, exit statuses, where to read on.
  private static func addClosing(to page: inout ManualPage) {
    page.addClosing(
      environment: """
        STOCKROOM_HOST, STOCKROOM_PORT, STOCKROOM_USER  as -h, -p and -u, over the config file
        STOCKROOM_PASSWORD  the password for -u when there is no --password-file
        STOCKROOM_HISTFILE  the REPL's history file (/dev/null keeps none)
        NO_COLOR  no colours, as --no-color
        PAGER, VISUAL, EDITOR, SHELL  the pager, the editor for DIARY, and the shell for :! and pipes
        EDITRC  libedit's own file, else ~/.editrc (editrc(5))
        """,
      files: """
        ~/.config/stockroom/config  defaults, as above
        ~/.stockroom_history  the REPL's history, without any line that carries a password
        """,
      exitStatus: """
        0  the command answered OK; piped input ran (with -e, every reply was OK)
        1  an ERR (with -e, any ERR), or a failed login with a command or piped input
        2  the server cannot be reached
        64  a mistake in the options
        78  a mistake in the config file
        """,
      seeAlso: """
        stockroomd(8), editrc(5). The manual is in the repository's docs/ folder: docs/client.md
        and docs/reference/stockroom.md; the protocol, every command and error code, is Protocol.md.
        """)
  }
}
