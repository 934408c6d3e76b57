import Synchronization

/// Who is logged in on which connection, for WHO. Only logged-in connections are kept: a guest
/// is anyone counted in the clients but not here.
package final class Presence: Sendable {
  package struct Entry: Sendable, Equatable {
    package var account: String
    /// The hash the account had at login: WHO checks it against the account as it is now, so a
    /// connection whose account was removed or given a new password counts as the guest it is.
    package var loginHash: String?
    package var watching: Bool
  }

  private let entries = Mutex<[Int: Entry]>([:])

  /// Records what `connection` is now; nil when it is a guest or gone.
  package func update(_ connection: Int, _ entry: Entry?) {
    entries.withLock { $0[connection] = entry }
  }

  package var snapshot: [Entry] { entries.withLock { Array($0.values) } }

  package init() {}
}
