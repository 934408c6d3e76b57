/// A whole reply as a client sees it: data rows and the closing status line.
public struct Reply: Sendable, Equatable {
  public enum Status: Sendable, Equatable {
    case ok(String)
    case error(ErrorCode?, String)
  }

  public var rows: [Row]
  public var status: Status
  /// The protocol lines as received, for raw output.
  public var lines: [String]

  public init(rows: [Row], status: Status, lines: [String]) {
    self.rows = rows
    self.status = status
    self.lines = lines
  }

  public var isOK: Bool {
    if case .ok = status { return true }
    return false
  }

  public var errorCode: ErrorCode? {
    if case .error(let code, _) = status { return code }
    return nil
  }

  /// The text after `OK ` or the message after `ERR CODE `.
  public var message: String {
    switch status {
    case .ok(let text): text
    case .error(_, let text): text
    }
  }

  /// Fields written `key=value` in the text after `OK`, e.g. `OK order=17 total=28800`.
  public var statusFields: Row {
    (try? Row(parsing: "_ " + message)) ?? Row()
  }
}
