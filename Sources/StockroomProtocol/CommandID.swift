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
}
