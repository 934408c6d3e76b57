/// One key of the client's config file, with the values it takes and what it does.
/// `ClientConfigKey.all` is the list `ClientConfig` accepts (an unknown key is refused with it),
/// and `--help`, `man stockroom` and docs/reference/stockroom.md are written from it.
public struct ClientConfigKey: Sendable {
  public let name: String
  /// What the value is: `on|off`, `FILE`.
  public let value: String
  public let help: String

  init(_ name: String, _ value: String, _ help: String) {
    self.name = name
    self.value = value
    self.help = help
  }

  public static let all = [
    ClientConfigKey("host", "ADDRESS", "the server's address, as -h ($STOCKROOM_HOST and -h win)"),
    ClientConfigKey("port", "PORT", "the server's port, as -p ($STOCKROOM_PORT and -p win)"),
    ClientConfigKey("user", "NAME", "log in as NAME, as -u ($STOCKROOM_USER and -u win); never a password"),
    ClientConfigKey("color", "auto|off", "auto (the default) or off; \"colour\" works too"),
    ClientConfigKey("pager", "on|off|COMMAND", "on (the default: $PAGER, else less -FRX), off, or a command"),
    ClientConfigKey(
      "tls", "on|off", "on: connect with TLS (--tls; port 7879 unless port says), unless a stockroom:// URL is given"),
    ClientConfigKey("cacert", "FILE", "the CAs TLS trusts (--cacert), for tls = on, --tls and stockrooms:// URLs"),
    ClientConfigKey(
      "timing", "on|off", "on: the REPL starts with :timing on (scripts and one-shot commands are not changed)"),
    ClientConfigKey(
      "json", "on|off", "on: the REPL starts with :json on (scripts and one-shot commands are not changed)"),
    ClientConfigKey("wide", "on|off", "on: tables with every column (--wide, :wide on)"),
    ClientConfigKey(
      "highlight", "on|off", "off: the REPL's line is not coloured as you type (colour off turns it off too)"),
    ClientConfigKey(
      "prompt", "FORMAT",
      """
      the prompt: %u user (empty for a guest), %@ user and @, %h host, %p port, %s "not connected"
      while not, %% a percent sign; quoted to keep spaces at its ends; the default is "stockroom %@%h:%p> "
      """),
    ClientConfigKey(
      "startup", "COMMAND", "run when the REPL starts, in order, as psql runs .psqlrc; the one key that may repeat"),
  ]
}
