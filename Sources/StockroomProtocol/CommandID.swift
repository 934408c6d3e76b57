/// Every command and subcommand the protocol knows; the server's dispatch switches over this,
/// so a command in the table without a handler does not compile.
public enum CommandID: String, Sendable, CaseIterable, Hashable {
  case help, ping, quit, hello, info, names
  case list, show, expo, stock, add, order, stocktake
  case diary, diaryNew, diaryList, diaryShow, diaryEdit, diaryDelete
  case product, productNew, productEdit, productDelete, productList, productShow
  case login, logout, whoami, register, passwd
  case user, userAdd, userDel, userRole, userPasswd, userList
  case watch, unwatch, who

  /// The command's place in `allCases`, for tables that every request reads (its route, its
  /// counter): an array indexed by it costs a load, where a dictionary keyed by a `String`-backed
  /// enum hashes the raw value's text. A case without a payload is stored as its place in the
  /// declaration (Swift's type layout), which `allCases` follows; a test checks both.
  @inlinable public var index: Int { Int(unsafeBitCast(self, to: UInt8.self)) }
}
