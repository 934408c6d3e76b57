/// Path arithmetic done on the text, because Foundation's `NSString.deletingLastPathComponent`
/// traps on a one-character path such as `--data d` (swift-corelibs-foundation, Swift 6.3.1).
enum FilePaths {
  /// The directory part of `path`: "" for a bare name, "/" for an entry of the root.
  static func parent(of path: String) -> String {
    var trimmed = Substring(path)
    while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
    guard let slash = trimmed.lastIndex(of: "/") else { return "" }
    if slash == trimmed.startIndex { return "/" }
    var parent = trimmed[..<slash]
    while parent.count > 1 && parent.hasSuffix("/") { parent = parent.dropLast() }
    return String(parent)
  }
}
