import Foundation
import StockroomTestSupport
import Testing

/// OpenSSL's clean-up at exit freed its global state while threads that were still ending freed
/// theirs, and the bench's load generator crashed about once in a hundred TLS runs, failing CI's
/// `Scripts/bench --smoke`. `TLSLibrary.prepare()`, which making a context calls first, turns that
/// clean-up off; `TLSExitProbe` shows whether it ran, through a handler OpenSSL calls from it.
@Suite("OpenSSL at exit", .timeLimit(.minutes(30)))
struct TLSExitTests {
  private static let marker = "openssl cleaned up at exit"

  /// The probe's standard output, after it exited 0.
  private func probe(_ arguments: [String]) throws -> String {
    let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    let path = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("TLSExitProbe").path
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("tls-exit-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: output) }
    let status = try Subprocess.run(path, arguments, environment: [:], stdout: output)
    #expect(status == 0)
    return try String(contentsOfFile: output, encoding: .utf8)
  }

  @Test("a program that made a TLS context leaves OpenSSL's state to the exit")
  func preparedProgramSkipsCleanup() throws {
    let output = try probe([])
    #expect(output.contains("context made"))
    #expect(!output.contains(Self.marker))
  }

  @Test("the probe sees OpenSSL's clean-up when OpenSSL was initialised its default way first")
  func defaultInitialisationCleansUp() throws {
    let output = try probe(["--openssl-first"])
    #expect(output.contains("context made"))
    #expect(output.contains(Self.marker))
  }
}
