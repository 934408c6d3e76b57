/// One thing `stockroom --help` lists: an option (`-u, --user NAME`) or a word that stands for
/// options (`stockroom://[NAME@]HOST[:PORT]`). `ClientOptionTable.all` holds every one, and
/// `--help`, `man stockroom` and docs/reference/stockroom.md are all written from it.
public struct ClientOption: Sendable {
  /// How it is spelled, each way (`-u`, `--user`), or the word's pattern.
  public let spellings: [String]
  /// What follows it on the command line (`NAME`); nil when nothing does.
  public let placeholder: String?
  /// What `--help` says: the first line beside the option, later lines under it.
  public let help: String

  public init(_ spellings: [String], _ placeholder: String? = nil, help: String) {
    self.spellings = spellings
    self.placeholder = placeholder
    self.help = help
  }

  /// Whether it is an option (`-u`) rather than a URL's pattern.
  public var isFlag: Bool { spellings.allSatisfy { $0.hasPrefix("-") } }

  /// `-u, --user NAME` as `--help` writes it.
  public var synopsis: String {
    let words = spellings.joined(separator: ", ")
    return placeholder.map { "\(words) \($0)" } ?? words
  }
}
