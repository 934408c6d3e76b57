/// What one connection remembers between its requests.
struct Session: Sendable {
  static let defaultUser = "guest"

  var user = Session.defaultUser
  /// nil when not watching; an empty set means every item.
  var watching: Set<String>? = nil
  /// Set by QUIT: close once the reply is out.
  var wantsClose = false
  /// The commit the current request's reply waits for, if any.
  var commit: CommitTicket? = nil

  init() {}
}
