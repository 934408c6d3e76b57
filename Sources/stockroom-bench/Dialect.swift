import StockroomTLS

/// What differs between the servers under test: request bytes, setup, and where a reply ends.
protocol Dialect: Sendable {
  /// The bytes of one request for `benchCase`, terminator included.
  func request(_ benchCase: BenchCase) -> [UInt8]

  /// Runs once before any connection opens, to put the server in the state the cases need.
  func prepare(host: String, port: UInt16, timeoutSeconds: Int, tls: TLSContext?) throws(BenchError)

  /// Runs once per connection before its first request.
  func greet(_ socket: BlockingSocket) throws(BenchError)

  /// The length of the first complete reply in `bytes` and whether it reports a failure, or nil
  /// while that reply is still incomplete.
  func scan(_ bytes: UnsafeRawBufferPointer) -> (length: Int, failed: Bool)?

  /// The request that makes a connection a watcher of banana (fan-out).
  var watchRequest: [UInt8] { get }

  /// The publisher's request that makes every watcher receive one event (fan-out).
  var changeRequest: [UInt8] { get }

  /// How many whole events a watcher's `bytes` begin with, and how many bytes they take.
  func events(in bytes: UnsafeRawBufferPointer) -> (count: Int, length: Int)
}
