import StockroomProtocol

/// The last paged list the REPL showed (`LIST dishes size=5`, `STOCKTAKE 딸기`, `DIARY LIST`),
/// so `:next` and `:prev` can ask for the page beside it without the user retyping the line.
struct PageCursor: Sendable, Equatable {
  /// The request as sent, whatever page it named.
  var line: String
  var page: Int
  var pages: Int

  /// The cursor a reply leaves, when it is a page of a list (`total= page= pages=`).
  init?(line: String, reply: Reply) {
    let fields = reply.statusFields
    guard reply.isOK, let page = fields["page"].flatMap({ Int($0) }),
      let pages = fields["pages"].flatMap({ Int($0) }), fields["total"] != nil
    else { return nil }
    self.line = line
    self.page = page
    self.pages = pages
  }

  /// The request for the page `step` away (+1 next, -1 previous), or why there is none.
  func line(moving step: Int) -> Result<String, Refusal> {
    let wanted = page + step
    guard wanted >= 1 else { return .failure(Refusal(description: "already on the first page (1 of \(pages))")) }
    guard wanted <= pages else {
      return .failure(Refusal(description: "already on the last page (\(page) of \(pages))"))
    }
    // The line was sent and answered, so the protocol's tokenizer reads it.
    let words = ((try? Tokenizer.words(in: line)) ?? []).filter { $0.key?.lowercased() != "page" }.map { word in
      word.key.map { $0 + "=" + Quoting.quote(word.value, isValue: true) } ?? Quoting.quote(word.value)
    }
    return .success((words + ["page=\(wanted)"]).joined(separator: " "))
  }

  struct Refusal: Error, Equatable, CustomStringConvertible {
    var description: String
  }
}
