import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// One page of a headless Chromium, driven over the DevTools protocol: a WebSocket (RFC 6455,
/// text frames, masked as a client's must be) to the page's debugger URL, one command at a
/// time, each answered by the reply with its id. Of the events in between, script errors are
/// kept (`scriptErrors`) once `watchScriptErrors` has asked for them; the rest are skipped.
final class DevToolsPage {
  private let fd: Int32
  private var input: [UInt8] = []
  private var nextID = 1
  private var errors: [String] = []

  /// Connects to `debuggerURL` (`ws://127.0.0.1:PORT/devtools/page/ID`).
  init(debuggerURL: String) throws {
    guard let match = debuggerURL.wholeMatch(of: /ws:\/\/127\.0\.0\.1:(\d+)(\/.*)/), let port = UInt16(match.1)
    else { throw LineClient.Failure(description: "not a local debugger URL: \(debuggerURL)") }
    // A bound on each read, not a wait: Chromium answers in milliseconds, but on a machine at a
    // load of 16 (CI beside two builds) one reply took longer than the 30 s this was.
    fd = try HTTPExchange.connected(port: port, timeout: 120)
    let request =
      "GET \(match.2) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      + "Sec-WebSocket-Key: c3RvY2tyb29tLWJvYXJkLTE=\r\nSec-WebSocket-Version: 13\r\n\r\n"
    try write(Array(request.utf8))
    while input.firstRange(of: Array("\r\n\r\n".utf8)) == nil { try fill() }
    let end = input.firstRange(of: Array("\r\n\r\n".utf8))!
    let head = String(decoding: input[..<end.lowerBound], as: UTF8.self)
    guard head.hasPrefix("HTTP/1.1 101") else { throw LineClient.Failure(description: "no upgrade: \(head)") }
    input.removeSubrange(..<end.upperBound)
  }

  deinit { close(fd) }

  /// Sends `method` with `params` and returns its reply's `result`.
  @discardableResult
  func call(_ method: String, _ params: [String: Any] = [:]) throws -> [String: Any] {
    let id = nextID
    nextID += 1
    let message = try JSONSerialization.data(withJSONObject: ["id": id, "method": method, "params": params])
    try sendFrame(Array(message))
    while true {
      let reply = try JSONSerialization.jsonObject(with: Data(try readFrame())) as? [String: Any] ?? [:]
      guard reply["id"] as? Int == id else {
        if let error = Self.scriptError(reply) { errors.append(error) }
        continue
      }
      if let error = reply["error"] { throw LineClient.Failure(description: "\(method): \(error)") }
      return reply["result"] as? [String: Any] ?? [:]
    }
  }

  /// Asks for the events that report script errors. Chromium reports those that came before
  /// too (it keeps a page's console messages and uncaught exceptions), so this may come after
  /// the page has loaded.
  func watchScriptErrors() throws {
    try call("Runtime.enable")
    try call("Log.enable")
  }

  /// Every uncaught exception, `console.error` or `console.assert` failure, and error the
  /// browser logged about the page (a refused script, say) up to now; not a failed network
  /// request, which a page that reconnects meets on purpose.
  func scriptErrors() throws -> [String] {
    // A round trip: every event Chromium sent before its answer has been read by then.
    _ = try evaluate("0")
    return errors
  }

  /// What a DevTools event says of a script error, or nil when it is not one.
  private static func scriptError(_ event: [String: Any]) -> String? {
    let params = event["params"] as? [String: Any] ?? [:]
    switch event["method"] as? String {
    case "Runtime.exceptionThrown":
      let details = params["exceptionDetails"] as? [String: Any] ?? [:]
      let exception = (details["exception"] as? [String: Any])?["description"] as? String
      return "uncaught: \(exception ?? details["text"] as? String ?? "\(details)")"
    case "Runtime.consoleAPICalled":
      guard let type = params["type"] as? String, type == "error" || type == "assert" else { return nil }
      let words = (params["args"] as? [[String: Any]] ?? []).map { "\($0["value"] ?? $0["description"] ?? "")" }
      return "console.\(type): \(words.joined(separator: " "))"
    case "Log.entryAdded":
      let entry = params["entry"] as? [String: Any] ?? [:]
      guard entry["level"] as? String == "error", entry["source"] as? String != "network" else { return nil }
      return "log (\(entry["source"] ?? "")): \(entry["text"] ?? "")"
    default:
      return nil
    }
  }

  /// The value of a JavaScript expression in the page, as JSON gives it.
  func evaluate(_ expression: String) throws -> Any? {
    let result = try call("Runtime.evaluate", ["expression": expression, "returnByValue": true])
    return (result["result"] as? [String: Any])?["value"]
  }

  /// `evaluate`, or nil when the page navigated while the expression ran: Chromium then
  /// answers "Inspected target navigated or closed". For polling a page across a navigation,
  /// where that answer means "not there yet"; any other failure is thrown.
  func evaluateAcrossNavigation(_ expression: String) throws -> Any? {
    do {
      return try evaluate(expression)
    } catch let failure as LineClient.Failure where failure.description.contains("Inspected target navigated") {
      return nil
    }
  }

  /// A PNG of the page at `width`×`height` CSS pixels.
  func screenshot(width: Int, height: Int, mobile: Bool) throws -> Data {
    try call(
      "Emulation.setDeviceMetricsOverride",
      ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile])
    let shot = try call("Page.captureScreenshot", ["format": "png"])
    guard let base64 = shot["data"] as? String, let png = Data(base64Encoded: base64) else {
      throw LineClient.Failure(description: "no screenshot")
    }
    return png
  }

  private func write(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      guard sent > 0 else { throw LineClient.Failure(description: "DevTools socket: errno \(errno)") }
      offset += sent
    }
  }

  private func fill() throws {
    var chunk = [UInt8](repeating: 0, count: 65536)
    let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { throw LineClient.Failure(description: "DevTools socket closed: errno \(errno)") }
    input += chunk[..<count]
  }

  /// One masked text frame, FIN set.
  private func sendFrame(_ payload: [UInt8]) throws {
    var frame: [UInt8] = [0x81]
    if payload.count < 126 {
      frame.append(0x80 | UInt8(payload.count))
    } else if payload.count <= 0xFFFF {
      frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
    } else {
      frame.append(0x80 | 127)
      frame += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
    }
    let mask: [UInt8] = [0x5A, 0x17, 0xC3, 0x08]
    frame += mask
    frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    try write(frame)
  }

  /// The next whole message, its continuation frames joined.
  private func readFrame() throws -> [UInt8] {
    var message: [UInt8] = []
    while true {
      while input.count < 2 { try fill() }
      var length = Int(input[1] & 0x7F)
      var start = 2
      if length == 126 {
        while input.count < 4 { try fill() }
        length = Int(input[2]) << 8 | Int(input[3])
        start = 4
      } else if length == 127 {
        while input.count < 10 { try fill() }
        length = input[2..<10].reduce(0) { $0 << 8 | Int($1) }
        start = 10
      }
      while input.count < start + length { try fill() }
      let fin = input[0] & 0x80 != 0
      message += input[start..<(start + length)]
      input.removeSubrange(..<(start + length))
      if fin { return message }
    }
  }
}
