import StockroomProtocol

/// Requests by command and result, for `stockroom_commands_total`: one counter per command (and
/// one for lines that named none) and per result (ok, or each error code), found by index so a
/// request counts itself with one atomic add.
package final class CommandCounts: Sendable {
  /// The commands in table order, each with the words that name it (`DIARY NEW`); a command
  /// with subcommands runs only as one of them, so only they are counted.
  package static let commands: [(id: CommandID, path: String)] = CommandTable.allWithPaths.filter {
    $0.spec.subcommands.isEmpty
  }
  .map { ($0.spec.id, $0.path) }
  /// Each command's row, by `CommandID.index` (nil for one that only leads to subcommands): an
  /// array, since every request is counted and a dictionary would hash the command's name.
  private static let commandRow: [Int?] = CommandID.allCases.map { id in commands.firstIndex { $0.id == id } }
  /// ok, then every error code.
  package static let results: [ErrorCode?] = [nil] + ErrorCode.allCases
  private static let resultIndex: [ErrorCode: Int] = Dictionary(
    uniqueKeysWithValues: ErrorCode.allCases.enumerated().map { ($0.element, $0.offset + 1) })

  private let counters = AtomicCounters(count: (commands.count + 1) * results.count)
  /// The statics `record` reads, copied here: every request is recorded, and each static read
  /// checks that it was initialised (`swift_once`).
  private let commandRow = CommandCounts.commandRow
  private let otherRow = CommandCounts.commands.count
  private let rowWidth = CommandCounts.results.count

  /// `command` nil: the line named no command (empty, unparseable, unknown). `code` nil: ok.
  package func record(_ command: CommandID?, _ code: ErrorCode?) {
    let row = command.flatMap { commandRow[$0.index] } ?? otherRow
    let column = code.flatMap { Self.resultIndex[$0] } ?? 0
    counters.add(row * rowWidth + column)
  }

  /// Every count so far; `command` nil for lines that named none.
  package func each(_ body: (_ command: String?, _ code: ErrorCode?, _ count: Int) -> Void) {
    for row in 0...Self.commands.count {
      for (column, code) in Self.results.enumerated() {
        body(
          row < Self.commands.count ? Self.commands[row].path : nil, code, counters[row * Self.results.count + column])
      }
    }
  }
}
