import Foundation
import StockroomTestSupport

/// Runs the built `stockroom` binary with stdin from a file (so not a terminal) and collects
/// what it printed.
struct ClientProcess {
  struct Result {
    var status: Int32
    var output: String
    var error: String
    var lines: [String] { output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
  }

  struct Missing: Error, CustomStringConvertible {
    var description: String
  }

  /// The binary beside the test bundle, where `swift build` puts every product.
  static func binary(_ name: String = "stockroom") throws -> String {
    let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
    var folder = URL(fileURLWithPath: exe).deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = folder.appendingPathComponent(name).path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      folder = folder.deletingLastPathComponent()
    }
    throw Missing(description: "no \(name) binary near \(exe); run swift build first")
  }

  static func run(
    _ arguments: [String], input: String? = nil, environment: [String: String] = [:]
  ) throws -> Result {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("stockroom-client-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let inputPath = folder.appendingPathComponent("in").path
    let outputPath = folder.appendingPathComponent("out").path
    let errorPath = folder.appendingPathComponent("err").path
    _ = FileManager.default.createFile(atPath: inputPath, contents: Data((input ?? "").utf8))
    var env = ["PATH": "/usr/bin:/bin", "HOME": folder.path, "LANG": "C.UTF-8"]
    env.merge(environment) { $1 }
    let status = try Subprocess.run(
      try binary(), arguments, environment: env, stdin: inputPath, stdout: outputPath,
      stderr: errorPath)
    let output = try String(contentsOfFile: outputPath, encoding: .utf8)
    let error = try String(contentsOfFile: errorPath, encoding: .utf8)
    return Result(status: status, output: output, error: error)
  }
}
