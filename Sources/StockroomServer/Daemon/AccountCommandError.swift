/// Why a `stockroomd user` command did nothing, in one line that says what to do instead.
struct AccountCommandError: Error, Sendable, CustomStringConvertible {
  var description: String

  init(_ description: String) {
    self.description = description
  }
}
