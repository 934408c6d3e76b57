/// What the server last said of its shared database (`WATCH`'s `store=` field, `! store`
/// events): while it is down the levels on the board may be stale, and the board says so.
public enum BoardStoreLink: Sendable, Equatable {
  case up
  case down(reason: String?)
}
