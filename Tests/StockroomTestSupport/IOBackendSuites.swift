import Foundation
import Testing

/// The suites whose tests start a server on the backend `STOCKROOM_IO` names, as listed in
/// `Tests/dispatch-suites`, each with the passes of `Scripts/test` it runs in: `both` (epoll,
/// then again with `STOCKROOM_IO=dispatch`) when it drives something the two backends do each
/// their own way, `epoll` (once) when a second pass would only run the same engine, store or
/// client code again. Everything else runs once, in the epoll pass.
///
/// A list kept by hand would fall behind the first time a suite started its first server, and
/// that suite would then never be weighed for the Dispatch backend while CI passed. So whatever
/// starts such a server asks `check` first, and a test doing it from a suite the list lacks
/// fails, in the pass that runs every test.
public enum IOBackendSuites {
  /// The passes a listed suite runs in.
  public enum Passes: String, Sendable {
    /// Once with `STOCKROOM_IO=epoll` and once with `dispatch`.
    case both
    /// Once, with `STOCKROOM_IO=epoll`.
    case epoll
  }

  /// `Tests/dispatch-suites`, beside this target's folder.
  public static let listFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("dispatch-suites")

  /// The listed suites, `Module.Suite` each, with their passes; nil when the file cannot be
  /// read or a line is not `both|epoll Module.Suite: reason`, which fails every check rather
  /// than passing it.
  public static let listed: [String: Passes]? = {
    guard let text = try? String(contentsOf: listFile, encoding: .utf8) else { return nil }
    var listed: [String: Passes] = [:]
    for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.allSatisfy(\.isWhitespace) {
      let words = line.split(separator: " ", maxSplits: 2)
      guard words.count == 3, let passes = Passes(rawValue: String(words[0])), words[1].hasSuffix(":") else {
        return nil
      }
      listed[String(words[1].dropLast())] = passes
    }
    return listed
  }()

  /// The suite `test` belongs to, `Module.Suite` (the outermost, for a nested one), as Swift
  /// Testing names it in `--filter`.
  public static func suite(of test: Test) -> String {
    String(String(describing: test.id).split(separator: "/").first ?? "")
  }

  /// Fails the running test, if any, when its suite is not listed: `what` (a server in this
  /// process, a `stockroomd`) takes its backend from `STOCKROOM_IO`, and whether the Dispatch
  /// pass should run it too is for the list to say.
  public static func check(starting what: String) {
    guard let test = Test.current else { return }
    let suite = suite(of: test)
    guard let listed else {
      Issue.record("cannot read \(listFile.path) (a line is not `both|epoll Module.Suite: reason`)")
      return
    }
    guard listed[suite] == nil else { return }
    Issue.record(
      """
      \(suite) starts \(what) on the I/O backend STOCKROOM_IO names, but is not listed in \
      Tests/dispatch-suites: add it there, `both` if it drives something the epoll and Dispatch \
      backends each do their own way, `epoll` if not, with the reason.
      """)
  }
}
