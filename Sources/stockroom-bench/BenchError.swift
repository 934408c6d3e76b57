/// A reason the benchmark, or one of its connections, could not go on.
struct BenchError: Error, CustomStringConvertible, Sendable {
  var description: String

  init(_ description: String) {
    self.description = description
  }
}
