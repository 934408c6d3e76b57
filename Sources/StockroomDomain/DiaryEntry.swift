import Foundation

/// One diary entry; it belongs to its owner and no one else sees it.
public struct DiaryEntry: Sendable, Hashable {
  /// The row's id in the store, shared by every owner's entries; never shown to a client.
  public var id: Int
  /// The id its owner sees: 1, 2, 3... in each owner's own diary, so an entry's number says
  /// nothing of how many entries anyone else has written.
  public var number: Int
  public var owner: String
  public var title: String
  public var body: String
  public var created: Date
  public var updated: Date

  public init(id: Int, number: Int, owner: String, title: String, body: String, created: Date, updated: Date) {
    self.id = id
    self.number = number
    self.owner = owner
    self.title = title
    self.body = body
    self.created = created
    self.updated = updated
  }

  /// The body's first line, cut to `limit` characters and `byteLimit` bytes, for lists.
  public func preview(limit: Int = 40, byteLimit: Int = 160) -> String {
    let firstLine = body.split(whereSeparator: \.isNewline).first ?? ""
    var end = firstLine.startIndex
    var count = 0
    var bytes = 0
    for character in firstLine {
      let size = character.utf8.count
      guard count < limit, bytes + size <= byteLimit else { return String(firstLine[..<end]) + "…" }
      count += 1
      bytes += size
      end = firstLine.index(after: end)
    }
    return String(firstLine)
  }
}
