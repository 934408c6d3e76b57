import StockroomProtocol

/// What the server says can be named: ids and aliases from NAMES, categories from LIST, the
/// user's diary ids. Completion reads it; nothing here is hard-coded.
public struct CatalogNames: Sendable, Equatable {
  public struct Entry: Sendable, Equatable {
    public var id: String
    public var kind: String
    public var aliases: [String]

    public init(id: String, kind: String, aliases: [String]) {
      self.id = id
      self.kind = kind
      self.aliases = aliases
    }
  }

  public var entries: [Entry] = []
  public var generation: Int? = nil
  public var categories: [String] = []
  public var diaryIDs: [String] = []

  public init() {}

  /// Reads a NAMES reply: `* banana kind=fruit aliases=바나나` ... `OK count=N generation=G`.
  public mutating func update(names reply: Reply) {
    guard reply.isOK else { return }
    entries = reply.rows.compactMap { row in
      guard let id = row.id else { return nil }
      let aliases = (row["aliases"] ?? "").split(separator: ",").map(String.init)
      return Entry(id: id, kind: row["kind"] ?? "", aliases: aliases)
    }
    generation = reply.statusFields["generation"].flatMap { Int($0) }
  }

  /// Reads the reply to a bare LIST: one row per category.
  public mutating func update(categories reply: Reply) {
    guard reply.isOK else { return }
    categories = reply.rows.compactMap(\.id)
  }

  public mutating func update(diary reply: Reply) {
    guard reply.isOK else { return }
    diaryIDs = reply.rows.compactMap(\.id)
  }

  /// Ids and aliases of the entries whose kind passes `filter`.
  public func names(where filter: (String) -> Bool) -> [String] {
    entries.filter { filter($0.kind) }.flatMap { [$0.id] + $0.aliases }
  }
}
