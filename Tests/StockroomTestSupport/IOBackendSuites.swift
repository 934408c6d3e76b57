import Foundation
import Testing

/// The suites that `Scripts/test` runs a second time with `STOCKROOM_IO=dispatch`, as listed in
/// `Tests/dispatch-suites`: those whose tests start a server on the backend `STOCKROOM_IO`
/// names. Everything else runs once.
///
/// A list kept by hand would fall behind the first time a suite started its first server, and
/// that suite would then never meet the Dispatch backend while CI passed. So whatever starts
/// such a server asks `check` first, and a test doing it from a suite the list lacks fails, in
/// the pass that runs every test.
public enum IOBackendSuites {
  /// `Tests/dispatch-suites`, beside this target's folder.
  public static let listFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("dispatch-suites")

  /// The listed suites, `Module.Suite` each; nil when the file cannot be read, which fails
  /// every check rather than passing it.
  public static let names: Set<String>? = {
    guard let text = try? String(contentsOf: listFile, encoding: .utf8) else { return nil }
    let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    return Set(lines.filter { !$0.isEmpty && !$0.hasPrefix("#") })
  }()

  /// The suite `test` belongs to, `Module.Suite` (the outermost, for a nested one), as Swift
  /// Testing names it in `--filter`.
  public static func suite(of test: Test) -> String {
    String(String(describing: test.id).split(separator: "/").first ?? "")
  }

  /// Fails the running test, if any, when its suite is not listed: `what` (a server in this
  /// process, a `stockroomd`) takes its backend from `STOCKROOM_IO`, so only the Dispatch pass
  /// would test it there.
  public static func check(starting what: String) {
    guard let test = Test.current else { return }
    let suite = suite(of: test)
    guard let names else {
      Issue.record("cannot read \(listFile.path), the suites run with --io dispatch")
      return
    }
    guard !names.contains(suite) else { return }
    Issue.record(
      """
      \(suite) starts \(what) on the I/O backend STOCKROOM_IO names, but is not listed in \
      Tests/dispatch-suites: Scripts/test's --io dispatch pass would never run it. Add it there.
      """)
  }
}
