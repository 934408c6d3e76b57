import StockroomClient
import StockroomProtocol
import Testing

@Suite("stockroom:// URLs", .timeLimit(.minutes(30)))
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

  /// The options a command line asks for, or a recorded issue.
  private func options(_ words: [String]) throws -> ClientOptions? {
    guard case .run(let options) = try ClientOptions.parse(words) else {
      Issue.record("\(words) did not ask to run")
      return nil
    }
    return options
  }

  @Test("stockrooms:// and --tls ask for TLS, on the TLS port unless a port is named")
  func tlsScheme() throws {
    #expect(try ConnectionURL.parse("stockrooms://alice@host").scheme == .stockrooms)
    let url = try options(["stockrooms://alice@host", "PING"])
    #expect(url?.tls == ClientTLS())
    #expect(url?.port == ProtocolVersion.defaultTLSPort)
    #expect(url?.user == "alice")
    let withPort = try options(["--cacert", "ca.pem", "stockrooms://host:9000", "PING"])
    #expect(withPort?.tls?.caFile == "ca.pem")
    #expect(withPort?.port == 9000)
    #expect(try options(["--tls", "PING"])?.port == ProtocolVersion.defaultTLSPort)
    #expect(try options(["-p", "7000", "--tls", "--insecure", "PING"])?.port == 7000)
    #expect(try options(["-p", "7000", "--tls", "--insecure", "PING"])?.tls?.verify == false)
    #expect(try options(["stockroom://host", "PING"])?.tls == nil)
    #expect(throws: ClientOptions.UsageError.self) { try ClientOptions.parse(["--insecure", "PING"]) }
    // The config file: tls = on turns it on, cacert is a default that turns nothing on.
    let file = try ClientConfig.parse("tls = on\ncacert = /etc/shop-ca.pem\n", path: "config")
    let configured = try #require(try ClientOptions.parse(["PING"], config: file).runOptions)
    #expect(configured.tls?.caFile == "/etc/shop-ca.pem")
    #expect(configured.port == ProtocolVersion.defaultTLSPort)
    let plainURL = try #require(try ClientOptions.parse(["stockroom://h", "PING"], config: file).runOptions)
    #expect(plainURL.tls == nil, "a stockroom:// URL is plain whatever the file says")
    let caOnly = try ClientConfig.parse("cacert = /etc/shop-ca.pem\n", path: "config")
    let plain = try #require(try ClientOptions.parse(["PING"], config: caOnly).runOptions)
    #expect(plain.tls == nil)
    let secure = try #require(try ClientOptions.parse(["stockrooms://h", "PING"], config: caOnly).runOptions)
    #expect(secure.tls?.caFile == "/etc/shop-ca.pem")
    #expect(throws: ClientOptions.UsageError.self) { try ClientOptions.parse(["--tls", "--key", "k.pem", "PING"]) }
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
    let later = try #require(try ClientOptions.parse(["PING", "stockroom://x"]).runOptions)
    #expect(later.command == ["PING", "stockroom://x"], "a URL after the command is the command's word")
  }
}
