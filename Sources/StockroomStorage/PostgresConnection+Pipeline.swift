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
    guard statements.count > 1 else {
      return try statements.map { statement throws(PostgresError) in
        try query(statement.sql, statement.parameters)
      }
    }
    guard PQenterPipelineMode(handle) == 1 else { throw lost() }
    defer { PQexitPipelineMode(handle) }
    var sent = 0
    for statement in statements {
      guard send(statement) else { break }
      sent += 1
    }
    guard sent == statements.count, PQpipelineSync(handle) == 1 else {
      drain()
      throw lost()
    }
    return try collect(statements.count)
  }

  /// Queues one statement in the pipeline; false when libpq could not.
  private func send(_ statement: PostgresStatement) -> Bool {
    let copies = statement.parameters.map { $0.map { strdup($0) } ?? nil }
    defer {
      for pointer in copies { free(pointer) }
    }
    return copies.map { UnsafePointer($0) }.withUnsafeBufferPointer { values in
      PQsendQueryParams(handle, statement.sql, Int32(copies.count), nil, values.baseAddress, nil, nil, 0)
    } == 1
  }

  /// Reads `count` statements' results and the sync's. Each statement's result is followed by
  /// a null that ends it; the sync's result ends the pipeline.
  private func collect(_ count: Int) throws(PostgresError) -> [PostgresRows] {
    var results: [PostgresRows] = []
    var failure: PostgresError?
    for _ in 0..<count {
      guard let result = PQgetResult(handle) else {
        failure = failure ?? lost()
        break
      }
      if PQresultStatus(result) == PGRES_PIPELINE_ABORTED {
        PQclear(result)
      } else {
        do throws(PostgresError) { results.append(try rows(of: result)) } catch { failure = failure ?? error }
      }
      // The null that ends this statement's results.
      while let extra = PQgetResult(handle) { PQclear(extra) }
    }
    guard failure == nil || isConnected else { throw failure ?? lost() }
    drain()
    if let failure { throw failure }
    return results
  }

  /// Reads what is left up to the sync's result, so that the connection can leave pipeline mode.
  private func drain() {
    while let result = PQgetResult(handle) {
      let status = PQresultStatus(result)
      PQclear(result)
      if status == PGRES_PIPELINE_SYNC { return }
    }
  }
}
