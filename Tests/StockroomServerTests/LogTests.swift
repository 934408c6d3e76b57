import Foundation
import StockroomLogging
import Testing

@testable import StockroomServer

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Logs: text or JSON, to stderr or a file that SIGHUP reopens", .timeLimit(.minutes(30)))
struct LogTests {
  private func object(_ line: Substring) throws -> [String: String] {
    let parsed = try JSONSerialization.jsonObject(with: Data(line.utf8))
    guard let object = parsed as? [String: String] else {
      throw LineClient.Failure(description: "not an object of strings: \(line)")
    }
    return object
  }

  @Test("a text line's key=value fields become JSON fields; a sentence stays whole")
  func splitting() throws {
    let (text, fields) = LogMessage.split(
      "disconnect id=3 peer=127.0.0.1:5 reason=\"client \\\"x\\\" closed\" clients=0")
    #expect(text == "disconnect")
    #expect(fields.map(\.key) == ["id", "peer", "reason", "clients"])
    #expect(fields.map(\.value) == ["3", "127.0.0.1:5", "client \"x\" closed", "0"])
    #expect(LogMessage.split("listening on 127.0.0.1:7878 max_clients=5").text == "listening on 127.0.0.1:7878")
    let sentence = "commit of 3 changes failed: disk full; refusing writes until the disk accepts them"
    #expect(LogMessage.split(sentence).text == sentence)
    #expect(LogMessage.split(sentence).fields.isEmpty)
    // A field then free text: nothing guessed.
    #expect(LogMessage.split("start a=1 and then some").fields.isEmpty)
    let line = Logger.line(
      .json, time: "2026-12-01T08:00:00.000Z", level: .warning, message: "reject id=9 peer=::1 note=\"a\tb\u{1}\"",
      metadata: [(key: "message", value: "x\ny")])
    #expect(line.hasSuffix("}\n") && line.split(separator: "\n").count == 1)
    let object = try object(line.dropLast())
    #expect(object["level"] == "warning")
    #expect(object["message"] == "reject")
    #expect(object["note"] == "a\tb\u{1}")
    #expect(object["field_message"] == "x\ny")
    #expect(
      Logger.line(.text, time: "T", level: .info, message: "login", metadata: [(key: "user", value: "a b")])
        == "T INFO login user=\"a b\"\n")
  }

  /// A fresh path for a log file, in a directory of its own that is removed afterwards.
  final class LogDirectory: @unchecked Sendable {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-log-\(UUID().uuidString)").path
    init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
    func read(_ name: String) -> String { (try? String(contentsOfFile: "\(path)/\(name)", encoding: .utf8)) ?? "" }
    deinit { try? FileManager.default.removeItem(atPath: path) }
  }

  private func waitForLog(_ logs: LogDirectory, _ name: String, containing text: String) throws -> String {
    var content = ""
    try waitUntil {
      content = logs.read(name)
      return content.contains(text)
    }
    return content
  }

  @Test("--log-format json --log-file: every line one JSON object with time, level, message and fields")
  func jsonLines() throws {
    let logs = try LogDirectory()
    let daemon = try DaemonProcess(
      ["--port", "0", "--memory", "--log-format", "json", "--log-file", "\(logs.path)/d.log"], errorToFile: true)
    let started = try waitForLog(logs, "d.log", containing: "\"message\":\"listening on 127.0.0.1:")
    let port = try #require(started.firstMatch(of: /listening on 127\.0\.0\.1:(\d+)/).flatMap { UInt16($0.1) })
    let client = try LineClient(port: port)
    _ = try client.readReply()
    client.closeNow()
    let text = try waitForLog(logs, "d.log", containing: "\"message\":\"disconnect\"")
    // Stopped and gone, the server has written all it will to stderr, which is a file here.
    daemon.process.terminate()
    #expect(try daemon.waitForExit() == 0)
    #expect(daemon.log.isEmpty, "the log went to stderr too: \(daemon.log)")
    let lines = text.split(separator: "\n")
    #expect(lines.count >= 5)
    for line in lines {
      let object = try object(line)
      #expect(object["time"]?.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/) != nil, "\(line)")
      #expect(["info", "warning", "error"].contains(object["level"] ?? ""), "\(line)")
      #expect(!(object["message"] ?? "").isEmpty, "\(line)")
    }
    let connect = try #require(try lines.map(object).first { $0["message"] == "connect" })
    #expect(connect["id"] != nil && connect["peer"]?.hasPrefix("127.0.0.1:") == true && connect["clients"] == "1")
    let mode = try FileManager.default.attributesOfItem(atPath: "\(logs.path)/d.log")[.posixPermissions] as? Int
    #expect(mode == 0o640)
  }

  @Test("SIGHUP reopens the log file after logrotate moves it, and every client stays connected")
  func reopenOnHangUp() throws {
    let logs = try LogDirectory()
    let data = try DataDirectory()
    let daemon = try DaemonProcess(["--port", "0", "--data", data.path, "--log-file", "\(logs.path)/d.log"])
    let started = try waitForLog(logs, "d.log", containing: "listening on 127.0.0.1:")
    let port = try #require(started.firstMatch(of: /listening on 127\.0\.0\.1:(\d+)/).flatMap { UInt16($0.1) })
    let watcher = try LineClient(port: port)
    _ = try watcher.readReply()
    #expect(try watcher.request("WATCH banana").isOK)
    // What logrotate does: move the file, then signal.
    try FileManager.default.moveItem(atPath: "\(logs.path)/d.log", toPath: "\(logs.path)/d.log.1")
    kill(daemon.process.processIdentifier, SIGHUP)
    _ = try waitForLog(logs, "d.log", containing: "reload signal=SIGHUP log_file=\(logs.path)/d.log reopened=yes")
    let buyer = try LineClient(port: port)
    _ = try buyer.readReply()
    #expect(try buyer.request("ORDER banana 2").isOK)
    let fresh = try waitForLog(logs, "d.log", containing: " INFO connect ")
    #expect(fresh.contains("clients=2"), "\(fresh)")
    // The connection from before the signal was not dropped: it still gets its event and answers.
    #expect(try watcher.readEvent()["item"] == "banana")
    #expect(try watcher.request("PING").message == "PONG")
    let old = logs.read("d.log.1")
    #expect(old.contains(" INFO connect ") && !old.contains("reload"), "\(old)")
    #expect(old.split(separator: "\n").count + fresh.split(separator: "\n").count >= 6)
    #expect(daemon.process.isRunning)
  }
}
