import StockroomStorage
import StockroomTestSupport
import Testing

/// The libpq layer under the PostgreSQL store, against a real throw-away server.
@Suite(.serialized, .timeLimit(.minutes(30)))
struct PostgresConnectionTests {
  static let cluster = PostgresCluster.shared

  private func connect() throws -> PostgresConnection {
    try PostgresConnection(PostgresURL(try Self.cluster.get().url))
  }

  @Test func parametersRoundTripAsTextNeverAsSQL() throws {
    let connection = try connect()
    try connection.execute("DROP TABLE IF EXISTS notes; CREATE TABLE notes (id serial PRIMARY KEY, body text)")
    let hostile = "'); DROP TABLE notes; --"
    let korean = "딸기 16개\n바나나 5개"
    let inserted = try connection.query(
      "INSERT INTO notes (body) VALUES ($1), ($2), ($3) RETURNING id", [hostile, korean, nil])
    #expect(inserted.count == 3)
    #expect(inserted.affected == 3)
    let rows = try connection.query("SELECT id, body FROM notes ORDER BY id")
    #expect(rows.columns == ["id", "body"])
    #expect(rows.values.map { $0[1] } == [hostile, korean, nil])
    #expect(rows[0, "id"] == inserted[0, "id"])
    #expect(rows[0, "missing"] == nil)
  }

  @Test func serverErrorsCarryTheirSQLState() throws {
    let connection = try connect()
    try connection.execute("DROP TABLE IF EXISTS names; CREATE TABLE names (name text PRIMARY KEY)")
    try connection.query("INSERT INTO names VALUES ($1)", ["alice"])
    let duplicate = #expect(throws: PostgresError.self) {
      try connection.query("INSERT INTO names VALUES ($1)", ["alice"])
    }
    #expect(duplicate?.sqlState == .uniqueViolation)
    #expect(duplicate?.isUnavailable == false)
    let missing = #expect(throws: PostgresError.self) { try connection.query("SELECT * FROM no_such_table") }
    #expect(missing?.sqlState == .undefinedTable)
    // The connection is still usable after a refused statement.
    #expect(try connection.query("SELECT 1 AS one")[0, "one"] == "1")
  }

  @Test func aPipelineAnswersEveryStatementInOrder() throws {
    let connection = try connect()
    try connection.execute("DROP TABLE IF EXISTS piped; CREATE TABLE piped (id serial PRIMARY KEY, name text UNIQUE)")
    let results = try connection.pipeline([
      PostgresStatement("INSERT INTO piped (name) VALUES ($1) RETURNING id", ["kiwi"]),
      PostgresStatement("INSERT INTO piped (name) VALUES ($1), ($2)", ["banana", nil]),
      PostgresStatement("SELECT name FROM piped ORDER BY id"),
    ])
    #expect(results.count == 3)
    #expect(results[0].values.count == 1)
    #expect(results[1].affected == 2)
    #expect(results[2].values.map { $0[0] } == ["kiwi", "banana", nil])
  }

  @Test func aCommitRefusedAtTheSyncFailsThePipelineThoughItsStatementRan() throws {
    // A group's implicit transaction commits at its sync, after its statements answered: a
    // deferred check refused then (as a lost connection or a failed flush would be) must not
    // pass for a commit.
    let connection = try connect()
    try connection.execute(
      """
      DROP TABLE IF EXISTS deferred_child; DROP TABLE IF EXISTS deferred_parent;
      CREATE TABLE deferred_parent (id integer PRIMARY KEY);
      CREATE TABLE deferred_child (parent integer REFERENCES deferred_parent DEFERRABLE INITIALLY DEFERRED)
      """)
    let orphan = PostgresStatement("INSERT INTO deferred_child VALUES ($1)", ["7"], prepared: true)
    let refused = #expect(throws: PostgresError.self) {
      try connection.pipeline(transactions: [[orphan], [PostgresStatement("SELECT 1", prepared: true)]])
    }
    #expect(refused?.sqlState == SQLState(rawValue: "23503"), "\(String(describing: refused))")
    #expect(throws: PostgresError.self) { try connection.pipeline([orphan]) }
    #expect(try connection.query("SELECT count(*) AS n FROM deferred_child")[0, "n"] == "0")
    // The connection goes on, every result read.
    #expect(try connection.pipeline([PostgresStatement("SELECT 2 AS two", prepared: true)])[0][0, "two"] == "2")
  }

  @Test func eachGroupOfAPipelineIsATransactionOfItsOwnInOneRoundTrip() throws {
    let connection = try connect()
    try connection.execute("DROP TABLE IF EXISTS grouped; CREATE TABLE grouped (name text PRIMARY KEY)")
    let results = try connection.pipeline(transactions: [
      [PostgresStatement("INSERT INTO grouped VALUES ($1) RETURNING name", ["alice"])],
      // Before one sync, this BEGIN would take alice's row into its transaction, and lose it.
      [
        PostgresStatement("BEGIN"), PostgresStatement("INSERT INTO grouped VALUES ($1)", ["bob"]),
        PostgresStatement("ROLLBACK"),
      ],
    ])
    #expect(results.map(\.count) == [1, 3] && results[0][0].values == [["alice"]])
    #expect(try connection.query("SELECT name FROM grouped").values == [["alice"]])
    // A group that fails takes only itself back; the next one runs.
    let refused = #expect(throws: PostgresError.self) {
      try connection.pipeline(transactions: [
        [PostgresStatement("INSERT INTO grouped VALUES ($1)", ["alice"])],
        [PostgresStatement("INSERT INTO grouped VALUES ($1)", ["carol"])],
      ])
    }
    #expect(refused?.sqlState == .uniqueViolation)
    #expect(try connection.query("SELECT name FROM grouped ORDER BY name").values == [["alice"], ["carol"]])
  }

  @Test func aPipelineStopsAtItsFirstFailureAsOneTransactionAndTheConnectionGoesOn() throws {
    let connection = try connect()
    try connection.execute("DROP TABLE IF EXISTS piped; CREATE TABLE piped (name text PRIMARY KEY)")
    let refused = #expect(throws: PostgresError.self) {
      try connection.pipeline([
        PostgresStatement("INSERT INTO piped VALUES ($1)", ["alice"]),
        PostgresStatement("INSERT INTO piped VALUES ($1)", ["alice"]),
        PostgresStatement("INSERT INTO piped VALUES ($1)", ["bob"]),
      ])
    }
    #expect(refused?.sqlState == .uniqueViolation)
    // Up to its sync a pipeline is one implicit transaction: the first row went with the rest.
    #expect(try connection.query("SELECT count(*) AS n FROM piped")[0, "n"] == "0")
    // In an explicit transaction the failure leaves it aborted, its COMMIT unrun, until ROLLBACK.
    #expect(throws: PostgresError.self) {
      try connection.pipeline([
        PostgresStatement("BEGIN"), PostgresStatement("INSERT INTO piped VALUES ($1)", ["carol"]),
        PostgresStatement("SELECT 1 / 0"), PostgresStatement("COMMIT"),
      ])
    }
    #expect(throws: PostgresError.self) { try connection.query("SELECT 1") }
    try connection.execute("ROLLBACK")
    #expect(try connection.query("SELECT count(*) AS n FROM piped")[0, "n"] == "0")
    #expect(try connection.query("SELECT 1 AS one")[0, "one"] == "1")
  }

  @Test func aPreparedStatementIsPreparedOnceAndAgainAfterAReconnection() throws {
    let connection = try connect()
    let other = try connect()
    try connection.execute("DROP TABLE IF EXISTS piped; CREATE TABLE piped (name text, n integer)")
    let insert = "INSERT INTO piped SELECT * FROM unnest($1::text[], $2::integer[])"
    let names = ["kiwi", "say \"hi\"", "back\\slash", nil, "딸기\n바나나", "{a,b}", "NULL"]
    let numbers = names.indices.map { String($0) }
    for _ in 1...3 {
      try connection.pipeline([
        PostgresStatement(
          insert, [PostgresStatement.array(names), PostgresStatement.array(numbers)], prepared: true),
        PostgresStatement("SELECT count(*) FROM piped", prepared: true),
      ])
    }
    let prepared = try connection.query("SELECT count(*) AS n FROM pg_prepared_statements")[0, "n"]
    #expect(prepared == "2", "each statement prepared once on the connection")
    let stored = try connection.query("SELECT name FROM piped WHERE n < \(names.count) ORDER BY n").values
    #expect(
      stored.map { $0[0] } == names.flatMap { [$0, $0, $0] }, "every text, quotes, backslashes and NULL as sent")
    // A reconnection is a new session without them: they are prepared again there.
    try other.query("SELECT pg_terminate_backend($1)", [String(connection.backendProcess)])
    #expect(throws: PostgresError.self) { try connection.query("SELECT 1") }
    try connection.reset()
    let again = try connection.pipeline([PostgresStatement("SELECT count(*) FROM piped", prepared: true)])
    #expect(again.first?[0, "count"] == String(3 * names.count))
  }

  @Test func sqlStateClassesDecideRetryAndAvailability() {
    #expect(SQLState.serializationFailure.isRetryable)
    #expect(SQLState.deadlockDetected.isRetryable)
    #expect(!SQLState.uniqueViolation.isRetryable)
    #expect(SQLState(rawValue: "08006").isUnavailable)
    #expect(SQLState.adminShutdown.isUnavailable)
    #expect(!SQLState.undefinedTable.isUnavailable)
  }

  @Test func notificationsReachAListenerInOrder() throws {
    let listener = try connect()
    let sender = try connect()
    try listener.listen("stock")
    for level in 1...3 { try sender.query("SELECT pg_notify('stock', $1)", ["banana \(level)"]) }
    var received: [PostgresNotification] = []
    // Holds the thread: each call waits at most a second for the next notification.
    for _ in 0..<20 where received.count < 3 { received += try listener.notifications(waitingUpTo: 1000) }
    #expect(received.map(\.payload) == ["banana 1", "banana 2", "banana 3"])
    #expect(received.allSatisfy { $0.channel == "stock" && $0.senderProcess == sender.backendProcess })
  }

  @Test func aLostConnectionIsReportedAsUnavailable() throws {
    let connection = try connect()
    let other = try connect()
    try other.query("SELECT pg_terminate_backend($1)", [String(connection.backendProcess)])
    let failure = #expect(throws: PostgresError.self) { try connection.query("SELECT 1") }
    #expect(failure?.isUnavailable == true)
    try connection.reset()
    #expect(try connection.query("SELECT 2 AS two")[0, "two"] == "2")
  }

  @Test func aServerThatIsNotThereFailsToConnectWithoutShowingThePassword() throws {
    // Port 1 is privileged and has no service on a test machine: the connection is refused.
    let url = try PostgresURL("postgresql://alice:s3cret-word@127.0.0.1:1/shop")
    #expect(url.redacted.contains("user=alice"))
    #expect(!url.redacted.contains("s3cret-word"))
    let failure = #expect(throws: PostgresError.self) { try PostgresConnection(url, connectTimeout: 2) }
    #expect(failure?.kind == .connectionFailed)
    #expect(failure?.isUnavailable == true)
    #expect(failure.map { !"\($0)".contains("s3cret-word") } == true)
  }

  @Test func aMalformedURLIsRefusedWithoutEchoingIt() {
    let failure = #expect(throws: PostgresError.self) { try PostgresURL("postgresql://alice:%zzsecret@host/db") }
    #expect(failure?.kind == .invalidURL)
    #expect(failure.map { !$0.message.contains("secret") } == true)
    let unknown = #expect(throws: PostgresError.self) { try PostgresURL("host=x colour=blue") }
    // libpq's reason is kept; the unknown name is blanked like any other fragment of the input.
    #expect(unknown?.message.contains("invalid connection option") == true)
    #expect(unknown?.message.contains("colour") == false)
  }
}
