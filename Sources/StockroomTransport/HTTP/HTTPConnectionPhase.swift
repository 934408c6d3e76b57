/// Where one HTTP connection is, as the server's own table sees it: what a deadline or a cut
/// does to it depends on this.
enum HTTPConnectionPhase: Equatable, Sendable {
  /// Accepted, its request's head not yet whole: the head's deadline runs, and nothing has been
  /// written to it, so a refusal can still be written whole.
  case head
  /// Its request reached the router: it is answered, or being answered, by MHD.
  case answered
  /// An event stream, by its id.
  case stream(Int)
  /// Closed by the server (deadline, or its place given to another source); MHD has still to
  /// notice. It holds no place and no request of it is answered.
  case cut

  /// The order a source's connections are cut in when another source needs a place: a head
  /// still trickling first, a stream last.
  var cutRank: Int {
    switch self {
    case .head, .cut: 0
    case .answered: 1
    case .stream: 2
    }
  }
}
