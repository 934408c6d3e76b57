import StockroomProtocol
import StockroomServer
import StockroomText

/// `stockroomd`'s reference, written from the option table (`ServerOptions.all`) and the usage
/// `--help` prints: docs/reference/stockroomd.md and the man page `stockroomd(8)`. A test keeps
/// the committed files equal to what this writes, so a new option reaches both once they are
/// regenerated (`ManualPage.regenerateCommand`).
public enum ServerManual {
  /// How the config file gives `option`: `max-clients = N`, `quiet = yes|no`, or nil for an
  /// option the command line alone takes.
  static func key(_ option: ServerOption) -> String? {
    guard option.isKey else { return nil }
    return "\(option.name) = \(option.placeholder ?? "yes|no")"
  }

  public static var markdown: String {
    let rows = ServerOptions.all.map { option in
      [
        MarkdownTable.code(option.synopsis), key(option).map(MarkdownTable.code) ?? "command line only", option.help,
      ]
    }
    return """
      # `stockroomd` options and config keys

      <!-- Generated from the option table; do not edit. Regenerate with: \(ManualPage.regenerateCommand) -->

      Every option of `stockroomd`, written from the option table the command line, the config
      file and `--help` are all read from (`Sources/StockroomDaemon/ServerOptions.swift`); a test
      fails when this file and the table disagree. How to run the server is in
      [operating.md](../operating.md); the same reference is `man stockroomd`.

      ## Options and keys

      Each long option is also a key of the config file (`--config FILE`, else
      `\(ServerConfiguration.defaultConfigFile)` when it exists), without its dashes; a flag takes
      `yes` or `no`. The environment (`STOCKROOM_STORE`, `STOCKROOM_IO`) wins over the file, and
      the command line over both.

      \(MarkdownTable.text(header: ["Option", "Config file", "What"], rows: rows))

      ## `stockroomd --help`

      ```
      \(ServerConfiguration.usage)
      ```

      """
  }

  public static var manPage: String {
    var page = ManualPage(
      name: "stockroomd", section: 8, manual: "Stockroom Manual", release: ServerConfiguration.versionLine)
    page.add("Name", .paragraph("stockroomd - the Stockroom shop server"))
    page.add(
      "Synopsis",
      .verbatim(
        ["stockroomd [options]", "stockroomd [options] --check-config"]
          + ServerConfiguration.offlineCommands.map(\.synopsis)))
    page.add(
      "Description",
      .paragraph(
        """
        stockroomd serves a shared-stock shop (a juice bar, a side-dish shop, an open market, a
        private diary and the Paris 1900 Exposition) over a plain line protocol on TCP, and
        over TLS on a port of its own. Connect with nc 127.0.0.1 7878 and type HELP, or with
        stockroom(1). Every change is on disk before its OK is sent.
        """))
    page.add(
      "Options",
      .entries(
        ServerOptions.all.map { option in
          (option.synopsis, option.help + (key(option).map { "\nConfig file: \($0)." } ?? ""))
        }))
    page.add(
      "Commands without a server",
      .entries(ServerConfiguration.offlineCommands.map { ($0.synopsis, $0.help) }))
    addClosing(to: &page)
    return page.roff
  }

  /// The sections after the options: the environment, files, exit statuses, where to read on.
  private static func addClosing(to page: inout ManualPage) {
    page.addClosing(
      environment: """
        STOCKROOM_STORE  a PostgreSQL URL, as --store (over the config file)
        STOCKROOM_IO  epoll or dispatch, as --io (over the config file)
        STOCKROOM_CATALOG  the catalogue of a copied binary whose resource folder is not beside it
        """,
      files: """
        \(ServerConfiguration.defaultConfigFile)  the config file read when --config is not given: one key = value a line, each long option a key
        DIR/stockroom.sqlite  the shop, in the --data directory (default ./data, mode 0700)
        """,
      exitStatus: """
        0  stopped cleanly, or --help, --version, a check or an offline command succeeded
        64  a mistake in the options or the config file
        65  the shop or its directory refused at start, or protected mode without an admin
        66  the catalogue, or a TLS certificate or key, cannot be used
        69  cannot listen, serve metrics, or reach the PostgreSQL store
        73  the log file cannot be opened
        74  the backup failed
        78  --check-config found problems
        """,
      seeAlso: """
        stockroom(1). The manual is in the repository's docs/ folder: docs/operating.md (the service,
        the config file, logs, metrics, TLS), docs/security.md, docs/durability.md, and
        docs/reference/stockroomd.md; the protocol is Protocol.md.
        """)
  }
}
