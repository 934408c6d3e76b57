import Foundation

/// Every user's private diary: entries by store id, numbered per owner.
///
/// A part of `ShopState` that shares nothing with the stock, kept as a value of its own so the
/// rules for it live in one place and a store could one day keep and lock it apart.
public struct Diary: Sendable {
  private let limits: ShopLimits
  /// By store id.
  public private(set) var entries: [Int: DiaryEntry] = [:]
  /// Each owner's entries: their number to their store id.
  private var byOwner: [String: [Int: Int]] = [:]
  /// Each owner's next number; kept after deletes, so a number is never given twice.
  public private(set) var nextNumbers: [String: Int] = [:]

  init(limits: ShopLimits) {
    self.limits = limits
  }

  /// Puts back what a store saved.
  mutating func restore(_ saved: [DiaryEntry], nextNumbers numbers: [String: Int]) {
    for entry in saved {
      entries[entry.id] = entry
      byOwner[entry.owner, default: [:]][entry.number] = entry.id
      nextNumbers[entry.owner] = max(nextNumbers[entry.owner] ?? 1, entry.number + 1)
    }
    for (owner, next) in numbers {
      nextNumbers[owner] = max(nextNumbers[owner] ?? 1, next)
    }
  }

  /// `owner`'s entries, newest first.
  public func entries(of owner: String) -> [DiaryEntry] {
    guard let numbers = byOwner[owner] else { return [] }
    return numbers.keys.sorted(by: >).compactMap { numbers[$0].flatMap { entries[$0] } }
  }

  public func count(of owner: String) -> Int { byOwner[owner]?.count ?? 0 }

  /// Whether `owner` has entries at all.
  public func hasEntries(of owner: String) -> Bool { byOwner[owner] != nil }

  /// `owner`'s entry by the number they see. Numbers are per owner, so no one else's entries
  /// can be reached, counted or told apart from missing ones.
  public func entry(_ number: Int, of owner: String) throws(ShopError) -> DiaryEntry {
    guard let id = byOwner[owner]?[number], let entry = entries[id] else {
      throw ShopError(.notFound, "no diary entry \(number) of yours")
    }
    return entry
  }

  private func validate(title: String?, body: String?) throws(ShopError) {
    if let title { try TextRules.check(title, as: limits.diaryTitle) }
    if let body { try TextRules.check(body, as: limits.diaryBody) }
  }

  /// A new entry with store id `id`, the owner's next number.
  mutating func create(id: Int, owner: String, title: String, body: String, at: Date) throws(ShopError) -> DiaryEntry {
    try validate(title: title, body: body)
    let cap = limits.diaryEntries
    switch cap.refusal(held: count(of: owner), used: entries.count) {
    case .full: throw ShopError(.limit, "the diaries hold at most \(cap.total) entries")
    case .ownerFull: throw ShopError(.limit, "a diary holds at most \(cap.perOwner) entries; delete some first")
    case .reserved:
      throw ShopError(
        .limit,
        "the diaries are nearly full; their last \(cap.reserve) entries are kept for diaries of fewer than \(cap.small)"
      )
    case nil: break
    }
    let number = nextNumbers[owner] ?? 1
    let entry = DiaryEntry(id: id, number: number, owner: owner, title: title, body: body, created: at, updated: at)
    nextNumbers[owner] = number + 1
    entries[entry.id] = entry
    byOwner[owner, default: [:]][number] = entry.id
    return entry
  }

  mutating func edit(
    _ number: Int, of owner: String, title: String?, body: String?, at: Date
  ) throws(ShopError) -> DiaryEntry {
    var entry = try entry(number, of: owner)
    guard title != nil || body != nil else { throw ShopError(.invalid, "nothing to change; give title= or body=") }
    try validate(title: title, body: body)
    if let title { entry.title = title }
    if let body { entry.body = body }
    entry.updated = at
    entries[entry.id] = entry
    return entry
  }

  /// Removes the entry; returns it.
  mutating func delete(_ number: Int, of owner: String) throws(ShopError) -> DiaryEntry {
    let entry = try entry(number, of: owner)
    entries[entry.id] = nil
    byOwner[owner]?[number] = nil
    if byOwner[owner]?.isEmpty == true { byOwner[owner] = nil }
    return entry
  }
}
