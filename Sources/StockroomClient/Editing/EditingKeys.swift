/// The REPL's keys, as the manual lists them (`man stockroom`, docs/reference/stockroom.md),
/// beside the client commands `:help` lists from `LocalCommand.summaries`.
public enum EditingKeys {
  public static let summaries: [(key: String, summary: String)] = [
    ("Tab", "complete a command, item, category, option or diary id; twice lists the choices"),
    ("Right, Ctrl-F, End, Ctrl-E", "take the suggestion shown dimmed after the cursor (from history)"),
    ("Alt-F, Ctrl-Right", "take the suggestion's next word; elsewhere, move a word right"),
    ("Up, Down", "history lines starting with what is typed (any case); Down walks back"),
    ("Ctrl-R", "search the history as you type"),
    ("Ctrl-C", "give up the line (in vi mode too; the next line starts in insert mode)"),
    ("Ctrl-D", "leave, on an empty line"),
    ("Ctrl-L", "clear the screen"),
    ("Ctrl-Z", "suspend; fg brings the REPL back"),
    ("q, Ctrl-C", "stop :watch and :top"),
  ]

  /// What the manual says of the REPL before its tables.
  public static let overview = """
    The REPL colours the line as it is typed, hints a command's arguments at the right, and
    suggests the rest of a line from history. COMMAND | SHELL hands a reply (and HELP, :help
    or :history) to a shell command, COMMAND > FILE writes it to FILE (>> adds); the screen
    still shows a failed command's ERR. :watch repeats a command in place until q, Ctrl-C or
    an error, asking first for one that changes the shop; :watch 2 STOCK | grep x draws each
    round through the shell command. No hint follows a word marked wrong. ~/.editrc (or $EDITRC) is read
    first: bind -v gives vi keys. The config file's startup = lines run as if typed.
    """
}
