/// What the board asked the server, in the order it asked, so each reply is read as the
/// answer it is: replies come back in request order, with events in between.
enum BoardRequest: Sendable, Equatable {
  case login(name: String)
  case watch
  case names
  case stock
  case who
}
