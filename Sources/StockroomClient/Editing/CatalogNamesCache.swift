import StockroomProtocol

/// The catalogue's names as the REPL last fetched them (for completion, hints, the line's
/// colours and STOCK's tables), and whether they may be out of date: a product or diary
/// command, a listed/delisted event, or simply time passing, since other users change the
/// catalogue without this session watching.
struct CatalogNamesCache {
  /// How old the names may grow, in seconds, before they are fetched again anyway.
  static let maximumAge: Double = 10

  private(set) var names = CatalogNames()
  /// The line's colours as it is typed, read from `names`.
  private(set) var highlighter = LineHighlighter(names: CatalogNames())
  private var fetched: Double = 0
  private var stale = true

  /// Something may have changed the names; the next refresh fetches them.
  mutating func markStale() { stale = true }

  func isDue(at now: Double) -> Bool { stale || now - fetched > Self.maximumAge }

  /// NAMES, the categories and, for someone logged in, the diary's ids, each through
  /// `request`, on top of the names known so far.
  static func fetch(
    over known: CatalogNames, diary: Bool, request: (String) throws(ClientError) -> Reply
  ) throws(ClientError) -> CatalogNames {
    var fresh = known
    fresh.update(names: try request("NAMES"))
    fresh.update(categories: try request("LIST"))
    if diary { fresh.update(diary: try request("LIST diary size=100")) }
    return fresh
  }

  /// Keeps what `fetch` gave, fetched at `now`.
  mutating func keep(_ fresh: CatalogNames, fetchedAt now: Double) {
    names = fresh
    highlighter = LineHighlighter(names: fresh)
    fetched = now
    stale = false
  }
}
