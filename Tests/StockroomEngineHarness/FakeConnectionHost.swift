import StockroomDomain
import StockroomEngine
import StockroomProtocol
import StockroomSecurity

/// A `ConnectionHost` for `ConnectionCore` tests: a few made-up commands instead of the shop,
/// commit tickets the test completes by hand, and a record of everything the core asked for.
///
/// - `PING [word]` answers `OK word` (or `OK PONG`).
/// - `ORDER <name>` answers `OK ordered <name>`, waiting for a commit ticket kept in `tickets`.
/// - `BIG <n>` answers `n` bytes: `n - 1` of `x`, then LF.
/// - `LOGIN` waits for password work, kept in `credentials`, which `finish` answers `OK finished`.
/// - `QUEUE <name>` queues a change for a writer the test plays (`answerQueued`); answered, it
///   replies `OK queued <name>`, waiting for a commit ticket kept in `tickets`. `QUEUE <name>
///   account` queues one that changes an account. Only `QUEUE` runs beside queued changes.
/// - `WATCH` starts watching everything; `QUIT` answers `OK bye` and closes.
final class FakeConnectionHost: ConnectionHost {
  /// Every line handled, in order.
  private(set) var lines: [String] = []
  /// The commit ticket of each `ORDER`, by the name it was given.
  private(set) var tickets: [String: CommitTicket] = [:]
  /// Tickets the core asked to be told about, in order.
  private(set) var awaited: [CommitTicket] = []
  /// Password work the core asked to be run, in order.
  private(set) var credentials: [CredentialTicket] = []
  /// Changes handed to the writer, in order, by name.
  private(set) var submitted: [String] = []
  private var queued: [String: QueuedChange] = [:]
  private(set) var refusals: [ForeignProtocol] = []
  private(set) var subscriptions: [Set<String>?] = []
  /// Events still in the current subscription, handed over when it changes.
  var undelivered: [WatchEvent] = []
  var role = Role.guest

  func handle(_ line: ArraySlice<UInt8>, session: inout Session, out: inout ReplyEncoder) -> ReplyWait? {
    let text = String(decoding: line, as: UTF8.self)
    lines.append(text)
    let words = text.split(separator: " ").map(String.init)
    switch words.first {
    case "PING":
      out.ok(words.count > 1 ? words[1] : "PONG")
    case "ORDER":
      let ticket = CommitTicket()
      tickets[words[1]] = ticket
      out.ok("ordered \(words[1])")
      return .commit(ticket)
    case "BIG":
      let count = Int(words[1])!
      out.bytes += Array(repeating: UInt8(ascii: "x"), count: count - 1)
      out.endLine()
    case "LOGIN":
      return .work(
        .credential(CredentialTicket(.login(name: "ann"), .hash(Password("not checked here"), cost: .least))))
    case "QUEUE":
      let mutation: Mutation =
        words.count > 2 ? .deleteAccount(name: words[1]) : .restock(user: "ann", changes: [ItemCount(words[1], 1)])
      let change = QueuedChange(
        ChangeTicket(mutation, writer: PlayedWriter()), ChangeRequest(mutation) { _, _, _ in }, command: nil)
      queued[words[1]] = change
      return .change(change)
    case "WATCH":
      session.watching = []
      out.ok("watching")
    case "QUIT":
      session.closing = .clientQuit
      out.ok("bye")
    default:
      out.error(ProtocolError(.unknown, "unknown"))
    }
    return nil
  }

  func finish(_ work: PendingWork, session: inout Session, out: inout ReplyEncoder) -> ReplyWait? {
    out.ok("finished")
    return nil
  }

  func role(_ session: inout Session) -> Role { role }

  func awaitCommit(_ ticket: CommitTicket) { awaited.append(ticket) }

  func run(_ work: PendingWork) {
    if case .credential(let ticket) = work { credentials.append(ticket) }
  }

  func submit(_ change: QueuedChange) {
    guard let name = queued.first(where: { $0.value.ticket === change.ticket })?.key else { return }
    submitted.append(name)
  }

  /// Plays the writer: the change queued as `name` is applied (or refused), and its reply will
  /// wait for a commit ticket kept in `tickets`. The core is then told, by the test.
  func answerQueued(_ name: String, refused: Bool = false) {
    let ticket = CommitTicket()
    tickets[name] = ticket
    let applied = Applied(outcome: .restocked([]), events: [])
    queued[name]!.ticket.finish(refused ? .refused(ShopError(.shortage, "no \(name)")) : .applied(applied, ticket))
  }

  func answer(_ change: QueuedChange, session: inout Session, out: inout ReplyEncoder) -> ReplyWait? {
    let name = queued.first(where: { $0.value.ticket === change.ticket })!.key
    switch change.ticket.result {
    case .applied(_, let ticket)?:
      out.ok("queued \(name)")
      return ticket.map(ReplyWait.commit)
    default:
      out.error(ProtocolError(.shortage, "no \(name)"))
      return nil
    }
  }

  func mustWaitForChanges(_ line: ArraySlice<UInt8>) -> Bool {
    !String(decoding: line, as: UTF8.self).hasPrefix("QUEUE ")
  }

  func watchChanged(to watching: Set<String>?) -> [EncodedEvent] {
    subscriptions.append(watching)
    defer { undelivered = [] }
    return undelivered.map(EncodedEvent.init)
  }

  func presenceChanged(_ entry: Presence.Entry?) {}

  func refused(_ foreign: ForeignProtocol) { refusals.append(foreign) }
}
