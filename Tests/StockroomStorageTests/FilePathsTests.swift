import Testing

@testable import StockroomStorage

@Suite("Paths", .timeLimit(.minutes(30)))
struct FilePathsTests {
  @Test(
    "the parent of a path, without Foundation's trap on one-character names",
    arguments: [
      ("d", ""), ("data", ""), ("d/stockroom.sqlite", "d"), ("./d", "."), ("/d", "/"), ("/a/b/", "/a"),
      ("a//b", "a"), ("/", "/"),
    ])
  func parent(path: String, expected: String) {
    #expect(FilePaths.parent(of: path) == expected)
  }
}
