/// A password held for the session, and nowhere else: printing it, interpolating it or dumping
/// a value that contains it (`ClientOptions` in a failed test's message) shows a placeholder.
public struct Secret: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
  CustomReflectable
{
  /// The password itself; read only where it goes on the wire.
  public let reveal: String

  public init(_ text: String) { reveal = text }

  public var isEmpty: Bool { reveal.isEmpty }
  public var description: String { "<secret>" }
  public var debugDescription: String { "<secret>" }
  // Without this, `dump` and the default description of an enclosing struct walk the stored text.
  public var customMirror: Mirror { Mirror(self, children: []) }
}
