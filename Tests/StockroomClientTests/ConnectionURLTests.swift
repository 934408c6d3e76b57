import StockroomClient
import Testing

@Suite("stockroom:// URLs")
struct ConnectionURLTests {
  @Test("user, host and port; each part optional; IPv6 in brackets")
  func parts() throws {
    #expect(
      try ConnectionURL.parse("stockroom://alice@shop.example:7879")
        == ConnectionURL(scheme: .stockroom, user: "alice", host: "shop.example", port: 7879))
    #expect(try ConnectionURL.parse("stockroom://10.0.0.2") == ConnectionURL(host: "10.0.0.2"))
    #expect(try ConnectionURL.parse("STOCKROOM://bob@host/") == ConnectionURL(user: "bob", host: "host"))
    #expect(try ConnectionURL.parse("stockroom://[::1]:7878") == ConnectionURL(host: "::1", port: 7878))
    #expect(try ConnectionURL.parse("stockroom://:9000") == ConnectionURL(port: 9000))
  }

  @Test("the TLS scheme is recognised as such, and refused until the client speaks TLS")
  func tlsRefused() throws {
    let url = try ConnectionURL.parse("stockrooms://alice@host")
    #expect(url.scheme == .stockrooms)
    #expect(throws: ConnectionURL.Invalid.self) { try url.checkSupported() }
    let parsed = Result { try ClientOptions.parse(["stockrooms://alice@host", "PING"]) }
    guard case .failure(let error) = parsed else {
      Issue.record("stockrooms:// was accepted")
      return
    }
    #expect("\(error)".contains("TLS is not supported yet"))
  }

  @Test("a password, another scheme, a bad port or a path are refused; plain words are not URLs")
  func refused() throws {
    for text in [
      "stockroom://alice:secret@host", "http://host", "stockroom://host:0", "stockroom://host:99999",
      "stockroom://host/db", "stockroom://@host", "stockroom://[::1",
    ] {
      #expect(throws: ConnectionURL.Invalid.self, "\(text)") { try ConnectionURL.parse(text) }
    }
    // Whatever else is wrong with it, a password typed into a URL is not printed back.
    for text in ["stockroom://alice:hunter2@host/path", "stockroom://alice:hunter2@[::1", "stockroom://:hunter2@h"] {
      do {
        _ = try ConnectionURL.parse(text)
        Issue.record("accepted \(text)")
      } catch {
        #expect(error.message.hasPrefix("a URL cannot carry a password"))
        #expect(!error.message.contains("hunter2"))
      }
    }
    #expect(!ConnectionURL.looksLikeURL("STOCK"))
    #expect(!ConnectionURL.looksLikeURL("note=a://b c"))
    #expect(ConnectionURL.looksLikeURL("ftp://x"))
  }

  @Test("the URL sets host, port and user; a flag after it wins, the command follows it")
  func inOptions() throws {
    guard case .run(let options) = try ClientOptions.parse(["stockroom://alice@shop:7000", "-p", "7001", "PING"])
    else {
      Issue.record("not a run")
      return
    }
    #expect(options.host == "shop")
    #expect(options.port == 7001)
    #expect(options.user == "alice")
    #expect(options.command == ["PING"])
    guard case .run(let later) = try ClientOptions.parse(["PING", "stockroom://x"]) else { return }
    #expect(later.command == ["PING", "stockroom://x"], "a URL after the command is the command's word")
  }
}
