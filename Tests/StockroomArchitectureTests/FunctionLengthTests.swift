import Foundation
import Testing

/// A function a reader can hold at once: none in Sources is over 80 lines, from its declaration
/// to its closing brace. (swift-format, formatting the tree, keeps a body's closing brace at the
/// declaration's indentation, which is what this reads.)
@Suite(.timeLimit(.minutes(30))) struct FunctionLengthTests {
  static let limit = 80

  // Read only, after it is made: Regex is not Sendable, though nothing here changes it.
  @Test func noFunctionIsOverEightyLines() throws {
    let long = try Self.functions().filter { $0.lines > Self.limit }
    for function in long {
      Issue.record("\(function.place) is \(function.lines) lines: \(function.declaration)")
    }
  }

  /// The rule reads real functions: the tree has many, and this one measures itself.
  @Test func measuresTheTree() throws {
    let functions = try Self.functions()
    #expect(functions.count > 500)
    #expect(functions.contains { $0.declaration.hasPrefix("public static func run(arguments") })
  }

  nonisolated(unsafe) static let declaration = try! Regex(
    #"^(\s*)(@[\w.]+(\([^)]*\))?\s+)*((public|package|private|fileprivate|internal|static|final|override|mutating|nonisolated|convenience|required|class)\s+)*(func\s|init[?!]?[(<]|deinit\s*\{)"#
  )

  /// Every function, initializer and deinitializer with a body in Sources, with its length.
  static func functions() throws -> [(place: String, declaration: String, lines: Int)] {
    var found: [(place: String, declaration: String, lines: Int)] = []
    for file in try ImportRuleTests.swiftFiles(in: ImportRuleTests.sources) {
      let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
      for (index, line) in lines.enumerated() {
        guard let match = try declaration.firstMatch(in: String(line)) else { continue }
        let indent = match.output[1].substring?.count ?? 0
        guard let end = bodyEnd(lines, from: index, indent: indent) else { continue }
        let place = "\(file.deletingLastPathComponent().lastPathComponent)/\(file.lastPathComponent):\(index + 1)"
        found.append((place, line.trimmingCharacters(in: .whitespaces), end - index + 1))
      }
    }
    return found
  }

  /// The line of the body's closing brace; nil for a requirement without a body, or a body on
  /// the declaration's own line.
  static func bodyEnd(_ lines: [Substring], from start: Int, indent: Int) -> Int? {
    var opened = false
    for index in start..<lines.count {
      let line = lines[index]
      if index > start && !opened {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        // The declaration ended without a body: a protocol's requirement.
        if trimmed.isEmpty || trimmed.hasPrefix("///") || (try? declaration.firstMatch(in: String(line))) != nil {
          return nil
        }
      }
      if !opened {
        if line.hasSuffix("{") { opened = true } else if index == start && line.contains("}") { return nil }
        continue
      }
      let leading = line.prefix { $0 == " " }.count
      if leading == indent && line.dropFirst(indent).hasPrefix("}") { return index }
    }
    return nil
  }
}
