/// Why a catalogue file was refused: where in it, and what is wrong.
public struct CatalogError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A key path such as `juices[2].recipe[0].item`, or a line and column for bad JSON.
  public var location: String
  public var message: String

  public init(_ location: String, _ message: String) {
    self.location = location
    self.message = message
  }

  public var description: String { location.isEmpty ? message : "\(location): \(message)" }
}
