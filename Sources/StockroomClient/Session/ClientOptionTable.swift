import StockroomText

/// Every option `stockroom` takes, in the order `--help` lists them. `ClientOptions.parse` reads
/// the command line; a test holds the two together (each spelling here is one it takes), and
/// `--help`, `man stockroom` and docs/reference/stockroom.md are written from this list.
public enum ClientOptionTable {
  public static let all: [ClientOption] = [
    ClientOption(["-h", "--host"], "ADDRESS", help: "server address (default 127.0.0.1, or $STOCKROOM_HOST)"),
    ClientOption(["-p", "--port"], "PORT", help: "server port (default 7878, or $STOCKROOM_PORT)"),
    ClientOption(["-u", "--user"], "NAME", help: "log in as NAME (or $STOCKROOM_USER), and again after a reconnect"),
    ClientOption(["stockroom://[NAME@]HOST[:PORT]"], help: "the same three in one word, before any command"),
    ClientOption(
      ["--tls"],
      help: """
        connect with TLS (default port 7879); the server's certificate must
        be trusted and name HOST
        """),
    ClientOption(["stockrooms://[NAME@]HOST[:PORT]"], help: "the same as --tls with a URL"),
    ClientOption(["--cacert"], "FILE", help: "trust the CA certificates in FILE instead of the system's"),
    ClientOption(
      ["--insecure"],
      help: """
        take any certificate for any name (TLS without the check: only on a
        network you trust)
        """),
    ClientOption(["--cert"], "FILE", help: "a client certificate, for a server that asks for one (with --key)"),
    ClientOption(["--key"], "FILE", help: "the client certificate's key"),
    ClientOption(["--password-file"], "FILE", help: "NAME's password: the first line of FILE, which only you may read"),
    ClientOption(["-e"], help: "piped mode: exit 1 when any reply was an error"),
    ClientOption(["-r"], "N", help: "run the command N times (-1: until interrupted)"),
    ClientOption(["-i"], "SECONDS", help: "wait SECONDS between the runs of -r (fractions allowed: 0.5)"),
    ClientOption(["--raw"], help: "print protocol lines as they came (default when stdout is not a terminal)"),
    ClientOption(["--json"], help: "print one JSON object per reply"),
    ClientOption(["--csv"], help: "print rows as CSV: a header row, then one line per row"),
    ClientOption(["--human"], help: "print tables and colours even when stdout is not a terminal"),
    ClientOption(["--no-color"], help: "no colours (NO_COLOR=1 does the same)"),
    ClientOption(["--wide"], help: "tables with every column, however wide the terminal"),
    ClientOption(["--no-pager"], help: "never page long replies in the REPL ($PAGER, default less -FRX)"),
    ClientOption(["--version"], help: "print the version and protocol, as stockroom 0.1.0 protocol=2"),
    ClientOption(["--help"], help: "this text"),
  ]

  /// The options' part of `--help`: each synopsis, its help beside it, in a column.
  static var usage: String {
    HelpColumns.text(all.map { ($0.synopsis, $0.help) })
  }
}
