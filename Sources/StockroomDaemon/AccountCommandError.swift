/// Why a `stockroomd user` command did nothing, in one line that says what to do instead.
package struct AccountCommandError: Error, Sendable, CustomStringConvertible {
  package var description: String

  package init(_ description: String) {
    self.description = description
  }
}
