/// One kind of text a client can make the shop keep, with its bounds.
///
/// Characters are counted as people see them (extended grapheme clusters), but a character can
/// be built from any number of code points, so every field is bounded in UTF-8 bytes as well.
public struct TextField: Sendable, Equatable {
  public enum Lines: Sendable, Equatable {
    /// A name or a title: no line break of any kind.
    case one
    /// A description or a body: line breaks and tabs are kept.
    case many
  }

  /// How messages name it: "a product name".
  public var what: String
  public var characters: ClosedRange<Int>?
  public var bytes: ClosedRange<Int>
  public var lines: Lines

  public init(_ what: String, characters: ClosedRange<Int>?, bytes: ClosedRange<Int>, lines: Lines) {
    self.what = what
    self.characters = characters
    self.bytes = bytes
    self.lines = lines
  }

  /// Whether the field may be empty; a field that may not must also show something.
  public var isRequired: Bool { (characters?.lowerBound ?? bytes.lowerBound) > 0 }
}
