import Foundation
import StockroomTestSupport
import Testing

/// `Scripts/serve` on a fresh machine: README's next step after it pipes into `nc`, so serve
/// installs netcat as it installs the build packages. Run with apt-get, dpkg-query, sudo and
/// swift replaced by stand-ins on PATH, so nothing is installed or built.
@Suite("Scripts/serve installs what README's first example needs", .timeLimit(.minutes(30)))
struct ServeScriptTests {
  @Test("on a machine with nothing installed, Scripts/serve asks apt-get for netcat-openbsd with the build packages")
  func installsNetcat() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
    let stubs = folder.appendingPathComponent("stubs")
    let bin = folder.appendingPathComponent("bin")
    try FileManager.default.createDirectory(at: stubs, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let log = folder.appendingPathComponent("apt.log").path
    let scripts = [
      (stubs, "dpkg-query", "exit 1"),
      (stubs, "apt-get", "echo \"$@\" >> '\(log)'"),
      (stubs, "sudo", "exec \"$@\""),
      (stubs, "swift", "case \"$*\" in *--show-bin-path*) echo '\(bin.path)';; esac"),
      (bin, "stockroomd", "echo stockroomd started"),
    ]
    for (place, name, body) in scripts {
      let path = place.appendingPathComponent(name).path
      try ("#!/bin/sh\n" + body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
    }
    let output = folder.appendingPathComponent("out").path
    let status = try Subprocess.run(
      "/bin/bash", [Self.packageRoot + "/Scripts/serve"], environment: ["PATH": stubs.path + ":/usr/bin:/bin"],
      stdout: output, stderr: output)
    let said = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    #expect(status == 0, "\(said)")
    #expect(said.contains("stockroomd started"), "\(said)")
    let installs = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    let asked = installs.split(whereSeparator: \.isWhitespace)
    #expect(asked.contains("netcat-openbsd"), "\(installs)")
    #expect(asked.contains("libedit-dev"), "\(installs)")
  }

  /// The first folder up from this file with a Package.swift.
  static let packageRoot: String = {
    var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path),
      folder.path != "/"
    {
      folder = folder.deletingLastPathComponent()
    }
    return folder.path
  }()
}
