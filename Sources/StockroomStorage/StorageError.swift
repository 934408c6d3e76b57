/// Why the stored shop cannot be used: a refusal to start, with what is wrong and where.
public struct StorageError: Error, Sendable, CustomStringConvertible {
  public var description: String

  public init(_ description: String) {
    self.description = description
  }
}
