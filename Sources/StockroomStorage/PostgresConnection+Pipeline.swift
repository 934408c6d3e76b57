import CLibPQ

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Statements sent together and answered together (libpq's pipeline mode, PostgreSQL 14+):
/// one round trip for all of them instead of one each, which matters most for a transaction
/// that holds a lock other nodes wait on.
extension PostgresConnection {
  /// Sends every statement of `statements`, then one sync, and reads every result: one round
  /// trip. Outside a transaction block the statements run as one implicit transaction, as
  /// PostgreSQL runs a pipeline up to its sync. The first statement that fails is thrown, with
  /// its SQLSTATE, once every result is read (those after it did not run: PostgreSQL skips the
  /// rest of a pipeline after an error); a lost connection is thrown as lost.
  @discardableResult
  public func pipeline(_ statements: [PostgresStatement]) throws(PostgresError) -> [PostgresRows] {
    if statements.count == 1, let statement = statements.first, !statement.prepared {
      return [try query(statement.sql, statement.parameters)]
    }
    guard !statements.isEmpty else { return [] }
    return try pipeline(transactions: [statements])[0]
  }

  /// Sends each group of `transactions` followed by a sync of its own, and reads every result:
  /// one round trip for them all, each group its own implicit transaction (a group's own
  /// `BEGIN` cannot pull an earlier group's statements into its transaction, as it would before
  /// one sync). A failing statement skips the rest of its group only; the first failure is
  /// thrown once every result is read.
  @discardableResult
  public func pipeline(transactions: [[PostgresStatement]]) throws(PostgresError) -> [[PostgresRows]] {
    var answered: [[PostgresRows]] = []
    try pipeline(transactions: transactions, answered: &answered)
    return answered
  }

  /// `pipeline(transactions:)`, leaving in `answered` the results of the statements that ran,
  /// by group, also when it throws: the number in a group is the index of the statement that
  /// failed there.
  public func pipeline(
    transactions: [[PostgresStatement]], answered: inout [[PostgresRows]]
  ) throws(PostgresError) {
    guard PQenterPipelineMode(handle) == 1 else { throw lost() }
    defer { leavePipelineMode() }
    var expected: [[PipelineStep]] = []
    var preparing: [String: String] = [:]
    for statements in transactions {
      var steps: [PipelineStep] = []
      for statement in statements {
        guard let sent = send(statement, preparing: &preparing) else { break }
        steps += sent
      }
      expected.append(steps)
      guard steps.filter({ $0 == .statement }).count == statements.count, PQpipelineSync(handle) == 1 else {
        for _ in expected { _ = drain() }
        throw lost()
      }
    }
    try collect(expected, into: &answered)
  }

  /// Leaves pipeline mode, which libpq refuses while results are uncollected: after a connection
  /// lost mid-pipeline that libpq still counts as open, the rest never comes. Such a connection
  /// would refuse every later statement ("not allowed in pipeline mode") while looking usable,
  /// so it is made again instead (or left closed, for the next use to reopen).
  private func leavePipelineMode() {
    guard PQexitPipelineMode(handle) != 1 else { return }
    PQreset(handle)
    preparedNames.removeAll()
  }

  /// What answers in a pipeline, in order: a statement, or the preparing of one named so.
  private enum PipelineStep: Equatable {
    case statement
    case prepare(name: String, sql: String)
  }

  /// Queues one statement in the pipeline, preparing it first when it is to be kept prepared
  /// and is not yet; nil when libpq could not.
  private func send(_ statement: PostgresStatement, preparing: inout [String: String]) -> [PipelineStep]? {
    // Every parameter's text, each ended by a zero byte, in one buffer (rather than a copy of
    // each): a commit sends dozens.
    var bytes: [UInt8] = []
    var offsets: [Int?] = []
    offsets.reserveCapacity(statement.parameters.count)
    for parameter in statement.parameters {
      guard let parameter else {
        offsets.append(nil)
        continue
      }
      offsets.append(bytes.count)
      bytes += parameter.utf8
      bytes.append(0)
    }
    let count = Int32(offsets.count)
    return bytes.withUnsafeBufferPointer { buffer -> [PipelineStep]? in
      let base = UnsafeRawPointer(buffer.baseAddress)?.assumingMemoryBound(to: CChar.self)
      let pointers = offsets.map { offset -> UnsafePointer<CChar>? in
        guard let offset, let base else { return nil }
        return base + offset
      }
      return pointers.withUnsafeBufferPointer { values in
        sendPointers(statement, values.baseAddress, count: count, preparing: &preparing)
      }
    }
  }

  /// `send` with the parameters as C strings.
  private func sendPointers(
    _ statement: PostgresStatement, _ values: UnsafePointer<UnsafePointer<CChar>?>?, count: Int32,
    preparing: inout [String: String]
  ) -> [PipelineStep]? {
    guard statement.prepared else {
      let sent = PQsendQueryParams(handle, statement.sql, count, nil, values, nil, nil, 0)
      return sent == 1 ? [.statement] : nil
    }
    var steps: [PipelineStep] = []
    let known = preparedNames[statement.sql] ?? preparing[statement.sql]
    let name = known ?? "stockroom_\(namesGiven + 1)"
    if known == nil {
      namesGiven += 1
      preparing[statement.sql] = name
      guard PQsendPrepare(handle, name, statement.sql, count, nil) == 1 else { return nil }
      steps.append(.prepare(name: name, sql: statement.sql))
    }
    guard PQsendQueryPrepared(handle, name, count, values, nil, nil, 0) == 1 else { return nil }
    return steps + [.statement]
  }

  /// Reads the results `expected`, group by group, and each group's sync. Each result is
  /// followed by a null that ends it; a sync's result ends its group. The statements prepared
  /// here are remembered only when the whole pipeline went through.
  private func collect(_ expected: [[PipelineStep]], into groups: inout [[PostgresRows]]) throws(PostgresError) {
    var failure: PostgresError?
    for steps in expected {
      var results: [PostgresRows] = []
      for step in steps {
        guard let result = PQgetResult(handle) else {
          failure = failure ?? lost()
          break
        }
        if PQresultStatus(result) == PGRES_PIPELINE_ABORTED {
          PQclear(result)
        } else {
          do throws(PostgresError) {
            let rows = try rows(of: result)
            if step == .statement { results.append(rows) }
          } catch { failure = failure ?? error }
        }
        // The null that ends this step's results.
        while let extra = PQgetResult(handle) { PQclear(extra) }
      }
      groups.append(results)
      guard failure == nil || isConnected else { throw failure ?? lost() }
      if let refused = drain() { failure = failure ?? refused }
    }
    if let failure { throw failure }
    for case .prepare(let name, let sql) in expected.joined() { preparedNames[sql] = name }
  }

  /// Reads what is left of a group up to its sync's result, so that the next group's results
  /// line up and the connection can leave pipeline mode. Returns the failure of the group's
  /// implicit commit, which runs at the sync after its statements have answered (a deferred
  /// check refused, the connection lost before the commit was confirmed): that group did not
  /// commit. Two nulls in a row mean nothing more will come.
  private func drain() -> PostgresError? {
    var failure: PostgresError?
    var nulls = 0
    while nulls < 2 {
      guard let result = PQgetResult(handle) else {
        nulls += 1
        continue
      }
      nulls = 0
      let status = PQresultStatus(result)
      if status == PGRES_PIPELINE_SYNC {
        PQclear(result)
        return failure
      }
      do throws(PostgresError) { _ = try rows(of: result) } catch { failure = failure ?? error }
    }
    return failure ?? (isConnected ? nil : lost())
  }
}
