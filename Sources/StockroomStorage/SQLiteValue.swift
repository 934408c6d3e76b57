/// A value bound to a statement parameter.
public enum SQLiteValue: Sendable, Equatable {
  case null
  case integer(Int)
  case real(Double)
  case text(String)

  public init(_ text: String?) { self = text.map(SQLiteValue.text) ?? .null }
  public init(_ number: Int?) { self = number.map(SQLiteValue.integer) ?? .null }
}
