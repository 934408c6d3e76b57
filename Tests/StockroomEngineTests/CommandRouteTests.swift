import StockroomEngine
import StockroomProtocol
import Testing

@testable import StockroomEngineHarness

/// The engine dispatches from `CommandRoutes`, and the protocol's command table states the policy
/// (`.write`, `.read`, `.connection`) that the client, HELP and the write check read. These
/// tests keep the two tables one: a command added to one and not the other, or a route whose
/// kind disagrees with its flag, fails here rather than in a user's session.
@Suite("The command table and the engine's routes agree", .timeLimit(.minutes(30)))
struct CommandRouteTests {
  /// Every command a request can resolve to: the table's commands without subcommands, and the
  /// subcommands.
  static var leaves: [CommandSpec] {
    func leaves(_ spec: CommandSpec) -> [CommandSpec] {
      spec.subcommands.isEmpty ? [spec] : spec.subcommands.flatMap(leaves)
    }
    return CommandTable.commands.flatMap(leaves)
  }

  @Test("every command a request can name has a route, and a command that only leads to subcommands has none")
  func everyCommandIsRouted() {
    let leafIDs = Set(Self.leaves.map(\.id))
    for id in CommandID.allCases {
      #expect((CommandRoutes.route(for: id) != nil) == leafIDs.contains(id), "\(id)")
    }
  }

  @Test("a command flagged .write is exactly one whose route changes the shop", arguments: leaves)
  func writeFlagMatchesTheRoute(_ spec: CommandSpec) throws {
    let route = try #require(CommandRoutes.route(for: spec.id))
    let changes: Bool
    switch route {
    case .change, .changeFromShop, .passwordChange: changes = true
    case .answer, .view, .read, .passwordCheck: changes = false
    }
    #expect(spec.isWrite == changes, "\(spec.id)")
  }

  @Test("a route that shows the shop (and so waits for the cache and the commit) is a command flagged .read")
  func shopReadsAreFlaggedRead() throws {
    for spec in Self.leaves {
      let route = try #require(CommandRoutes.route(for: spec.id))
      if route.readsShop { #expect(spec.flags.contains(.read), "\(spec.id)") }
    }
    #expect(CommandRoutes.route(for: .stock)?.readsShop == true)
  }

  @Test("a command flagged .read or .connection answers from memory or a read, or checks a password")
  func readAndConnectionCommandsChangeNothing() throws {
    for spec in Self.leaves where !spec.flags.contains(.write) {
      let route = try #require(CommandRoutes.route(for: spec.id))
      switch route {
      case .answer, .view, .read: break
      case .passwordCheck: #expect(spec.flags.contains(.connection), "\(spec.id) checks a password")
      case .change, .changeFromShop, .passwordChange:
        Issue.record("\(spec.id) is not flagged .write but changes the shop")
      }
    }
  }
}

/// Which requests may run while a connection's changes wait for a shared store's writer: only
/// changes whose handler reads nothing of the shop.
@Suite("Requests beside changes queued for the writer", .timeLimit(.minutes(30)))
struct QueuedChangeCompanionTests {
  @Test(
    "changes that read only their arguments run beside queued ones; reads, logins and a change that reads the shop wait",
    arguments: [
      ("ORDER banana 2", false), ("ADD banana 5", false), ("PRODUCT NEW mug name=Mug price=3", false),
      ("DIARY NEW title=a body=b", false), ("STOCK banana", true), ("PING", true), ("LOGIN ann secret1234", true),
      ("PRODUCT EDIT mug price=4", true), ("nonsense words", false), ("ORDER", false),
    ])
  func waits(line: String, waits: Bool) throws {
    let engine = try EngineHarness()
    #expect(engine.handler.mustWaitForChanges(Array(line.utf8)[...]) == waits, "\(line)")
  }
}
