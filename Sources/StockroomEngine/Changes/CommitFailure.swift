import StockroomProtocol

/// Why a group commit did not happen, sorted by what the server does about it. The engine's own
/// word for a database's failure: the persistence target classifies its drivers' errors into it
/// (`CommitFailure+Driver`), so no driver error type reaches the engine.
package struct CommitFailure: Sendable, Equatable {
  package enum Kind: String, Sendable, Equatable, CaseIterable {
    /// The disk refused (full, I/O error, read-only): refuse writes until it accepts them again.
    case io
    /// The database server cannot be reached: refuse writes until it answers again.
    case unreachable
    /// SQLite refused the rows (a constraint, a bad value): a bug or a damaged file. That batch
    /// fails, the shop goes back to what the disk holds, and writes go on.
    case logic
  }

  package var kind: Kind
  package var message: String

  package init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  /// The one place a failed commit becomes a reply.
  package var reply: ProtocolError {
    ProtocolError(code, "the change was not saved, so it was not made: \(message)")
  }

  /// What a read held behind the commit is answered instead: it saw a change that was not saved.
  package var readReply: ProtocolError {
    ProtocolError(code, "this read saw a change that could not be saved, so it is not answered; ask again: \(message)")
  }

  private var code: ErrorCode {
    switch kind {
    case .io: .readOnly
    case .unreachable: .unavailable
    case .logic: .internal
    }
  }
}
