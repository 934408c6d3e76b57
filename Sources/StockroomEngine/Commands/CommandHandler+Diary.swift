import Foundation
import StockroomDomain
import StockroomProtocol

extension CommandHandler {
  package static func diaryID(_ word: Word) throws(ProtocolError) -> Int {
    try integer(word.text, what: "diary id", range: 1...Int(Int32.max))
  }

  package func diaryNew(_ request: Request, session: Session) -> ChangeRequest {
    let mutation = Mutation.createDiary(
      owner: session.user, title: request.arguments[0].text, body: request.arguments[1].text, at: clock.wallTime())
    return ChangeRequest(mutation) { applied, _, out in
      guard case .diarySaved(let entry) = applied.outcome else { preconditionFailure("diary answers saved") }
      out.diaryRow(entry, detail: false)
      out.endLine()
      out.ok(fields: [("diary", String(entry.number))])
    }
  }

  package func diaryList(_ request: Request, session: Session, out: inout ReplyEncoder) throws {
    try listDiary(try Paging(page: request.options[.page], size: request.options[.size]), session: session, out: &out)
  }

  /// The caller's own entries, newest first: DIARY LIST and LIST diary, which are one listing.
  func listDiary(_ paging: Paging, session: Session, out: inout ReplyEncoder) throws {
    let page = paging.slice(shop.read { state in state.diaryEntries(of: session.user) })
    for entry in page.items {
      out.diaryRow(entry, detail: false)
      out.endLine()
    }
    try Self.pageFooter(page, out: &out)
  }

  package func diaryShow(_ request: Request, session: Session, out: inout ReplyEncoder) throws {
    let id = try Self.diaryID(request.arguments[0])
    let entry = try shop.read { state throws(ShopError) in try state.diaryEntry(id, of: session.user) }
    out.diaryRow(entry, detail: true)
    out.endLine()
    out.ok(fields: [("diary", String(id))])
  }

  package func diaryEdit(_ request: Request, session: Session) throws -> ChangeRequest {
    let id = try Self.diaryID(request.arguments[0])
    let mutation = Mutation.editDiary(
      id: id, owner: session.user, title: request.options[.title], body: request.options[.body], at: clock.wallTime())
    return ChangeRequest(mutation) { applied, _, out in
      guard case .diarySaved(let entry) = applied.outcome else { preconditionFailure("diary answers saved") }
      out.diaryRow(entry, detail: true)
      out.endLine()
      out.ok(fields: [("diary", String(id))])
    }
  }

  package func diaryDelete(_ request: Request, session: Session) throws -> ChangeRequest {
    let id = try Self.diaryID(request.arguments[0])
    return ChangeRequest(.deleteDiary(id: id, owner: session.user)) { _, _, out in
      out.ok(fields: [("deleted", String(id))])
    }
  }
}
