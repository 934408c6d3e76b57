/// One exhibit of the Paris 1900 Exposition; read-only.
public struct Exhibit: Sendable, Codable, Hashable {
  public var id: String
  public var name: String
  public var aliases: [String]
  public var summary: String
  public var description: String
}
