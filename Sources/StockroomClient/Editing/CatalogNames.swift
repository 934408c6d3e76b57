import StockroomProtocol

/// What the server says can be named: ids and aliases from NAMES, categories from LIST, the
/// user's diary ids. Completion reads it; nothing here is hard-coded.
public struct CatalogNames: Sendable, Equatable {
  public struct Entry: Sendable, Equatable {
    public var id: String
    public var kind: String
    public var aliases: [String]
    /// The display name (`name=`), which the server also accepts; nil from an older server.
    public var name: String?

    public init(id: String, kind: String, aliases: [String], name: String? = nil) {
      self.id = id
      self.kind = kind
      self.aliases = aliases
      self.name = name
    }
  }

  /// The kinds ORDER, STOCK and the other item arguments take.
  static let itemKinds: Set<String> = ["fruit", "juice", "dish", "product"]

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
      return Entry(id: id, kind: row["kind"] ?? "", aliases: aliases, name: row["name"])
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

  /// The display name NAMES gave this id, if any, as a terminal may show it (a seller's name
  /// is the seller's words; see `VisibleControls`).
  public func displayName(of id: String) -> String? {
    entries.first { $0.id == id }?.name.map { VisibleControls.escaped($0, lineBreaks: false) }
  }

  /// Ids, aliases and display names of the entries whose kind passes `filter`. A display name
  /// that would need quotes (`Strawberry Juice`) is left out: completion works on bare words.
  public func names(where filter: (String) -> Bool) -> [String] {
    var seen: Set<String> = []
    return entries.filter { filter($0.kind) }.flatMap { entry in
      var words = [entry.id] + entry.aliases
      if let name = entry.name, !Quoting.needsQuotes(name) { words.append(name) }
      return words
    }.filter { seen.insert($0).inserted }
  }
}
