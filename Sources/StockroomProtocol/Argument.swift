/// One positional argument in a command's synopsis.
public struct Argument: Sendable, Hashable {
  public var name: String
  public var kind: ArgumentKind
  public var isOptional: Bool

  public init(_ name: String, _ kind: ArgumentKind, optional: Bool = false) {
    self.name = name
    self.kind = kind
    self.isOptional = optional
  }
}
