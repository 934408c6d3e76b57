import CLibPQ

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One libpq connection, used by one thread at a time (libpq connections are not thread-safe),
/// so it is deliberately not `Sendable`: a pool hands whole connections to threads.
///
/// Every call blocks its thread until PostgreSQL answers; never call it on an event loop.
public final class PostgresConnection {
  let handle: OpaquePointer
  public let url: PostgresURL
  /// The names of the statements prepared on this connection, by their SQL; a reconnection
  /// starts a new session, which has none.
  var preparedNames: [String: String] = [:]
  /// Numbers the names given, never reusing one: a name a failed pipeline may or may not have
  /// left behind is never asked for again.
  var namesGiven = 0

  /// Connects, waiting at most `connectTimeout` seconds (libpq counts whole seconds, at least 2).
  public init(_ url: PostgresURL, applicationName: String = "stockroomd", connectTimeout: Int = 5) throws(PostgresError)
  {
    // dbname is expanded first, so the options after it win over the same ones in the URL.
    let pairs = [
      ("dbname", url.text), ("connect_timeout", String(max(2, connectTimeout))),
      ("application_name", applicationName), ("client_encoding", "UTF8"),
    ]
    let keywords = pairs.map { strdup($0.0) }
    let values = pairs.map { strdup($0.1) }
    defer {
      for pointer in keywords + values { free(pointer) }
    }
    let connection = (keywords.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { keywordList in
      (values.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { valueList in
        PQconnectdbParams(keywordList.baseAddress, valueList.baseAddress, 1)
      }
    }
    guard let connection else {
      throw PostgresError(.connectionFailed, "cannot connect to PostgreSQL at \(url): out of memory")
    }
    guard PQstatus(connection) == CONNECTION_OK else {
      let reason = Self.message(PQerrorMessage(connection))
      PQfinish(connection)
      throw PostgresError(.connectionFailed, "cannot connect to PostgreSQL at \(url): \(reason)")
    }
    // libpq prints NOTICEs (such as "table does not exist, skipping") to stderr by default,
    // which would land in the server's log unasked.
    PQsetNoticeProcessor(connection, { _, _ in }, nil)
    self.handle = connection
    self.url = url
  }

  deinit { PQfinish(handle) }

  /// Whether the connection still works, as far as libpq knows without asking the server.
  public var isConnected: Bool { PQstatus(handle) == CONNECTION_OK }

  /// The server process serving this connection (what `NOTIFY` names as its sender).
  public var backendProcess: Int32 { PQbackendPID(handle) }

  /// Runs one statement with `$1`, `$2`… bound to `parameters` (text format; nil is NULL).
  /// Parameters never become part of the SQL text, so no value can change the statement.
  @discardableResult
  public func query(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> PostgresRows {
    let copies = parameters.map { $0.map { strdup($0) } ?? nil }
    defer {
      for pointer in copies { free(pointer) }
    }
    let result = copies.map { UnsafePointer($0) }.withUnsafeBufferPointer { values in
      PQexecParams(handle, sql, Int32(copies.count), nil, values.baseAddress, nil, nil, 0)
    }
    return try rows(of: result)
  }

  /// Runs SQL that may hold several statements and takes no parameters (schema scripts).
  public func execute(_ sql: String) throws(PostgresError) {
    _ = try rows(of: PQexec(handle, sql))
  }

  /// Runs `body` in one transaction that `begin` opens: committed when `body` returns, rolled
  /// back when anything throws (unless the connection is gone, which ended it already).
  public func transaction<T>(_ begin: String = "BEGIN", _ body: () throws -> T) throws -> T {
    try execute(begin)
    do {
      let result = try body()
      try execute("COMMIT")
      return result
    } catch {
      if isConnected { try? execute("ROLLBACK") }
      throw error
    }
  }

  /// Starts listening on `channel`; notifications arrive through `notifications(waitingUpTo:)`.
  public func listen(_ channel: String) throws(PostgresError) {
    try execute("LISTEN " + quotedIdentifier(channel))
  }

  /// The notifications that have arrived, waiting up to `milliseconds` for the first when none
  /// has (0 only collects what is there). Throws when the connection is lost, so a listener
  /// learns at once that it may have missed some.
  public func notifications(waitingUpTo milliseconds: Int32) throws(PostgresError) -> [PostgresNotification] {
    var received = try collectNotifications()
    guard received.isEmpty, milliseconds > 0 else { return received }
    var poller = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
    guard poller.fd >= 0 else { throw lost() }
    while poll(&poller, 1, milliseconds) < 0 {
      guard errno == EINTR else { throw lost() }
    }
    received = try collectNotifications()
    return received
  }

  /// Reconnects with the same options after the connection was lost.
  public func reset() throws(PostgresError) {
    PQreset(handle)
    preparedNames.removeAll()
    guard isConnected else {
      throw PostgresError(
        .connectionFailed, "cannot reconnect to PostgreSQL at \(url): \(Self.message(PQerrorMessage(handle)))")
    }
  }

  private func collectNotifications() throws(PostgresError) -> [PostgresNotification] {
    guard PQconsumeInput(handle) == 1 else { throw lost() }
    var received: [PostgresNotification] = []
    while let notice = PQnotifies(handle) {
      received.append(
        PostgresNotification(
          channel: String(cString: notice.pointee.relname), payload: String(cString: notice.pointee.extra),
          senderProcess: notice.pointee.be_pid))
      PQfreemem(notice)
    }
    return received
  }

  func rows(of result: OpaquePointer?) throws(PostgresError) -> PostgresRows {
    guard let result else { throw lost() }
    defer { PQclear(result) }
    switch PQresultStatus(result) {
    case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
      let columnCount = PQnfields(result)
      let columns = (0..<columnCount).map { String(cString: PQfname(result, $0)) }
      let values = (0..<PQntuples(result)).map { row in
        (0..<columnCount).map { column in
          PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
        }
      }
      return PostgresRows(columns: columns, values: values, affected: Int(String(cString: PQcmdTuples(result))) ?? 0)
    default:
      // 'C' and 'M' are PG_DIAG_SQLSTATE and PG_DIAG_MESSAGE_PRIMARY, macros Swift does not import.
      guard let code = PQresultErrorField(result, Int32(UInt8(ascii: "C"))) else { throw lost() }
      let primary = PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
      throw PostgresError(
        .server(SQLState(rawValue: String(cString: code))), primary ?? Self.message(PQresultErrorMessage(result)))
    }
  }

  func lost() -> PostgresError {
    PostgresError(
      .connectionLost, "lost the connection to PostgreSQL at \(url): \(Self.message(PQerrorMessage(handle)))")
  }

  private func quotedIdentifier(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  private static func message(_ text: UnsafePointer<CChar>?) -> String {
    guard let text else { return "no reason given" }
    let message = String(cString: text).split(whereSeparator: \.isNewline).joined(separator: "; ")
    return message.isEmpty ? "no reason given" : message
  }
}
