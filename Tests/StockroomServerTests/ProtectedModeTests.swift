import Foundation
import StockroomProtocol
import StockroomServer
import StockroomTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Protected mode for passwords, from a real non-loopback address: the machine's own address
/// on its network interface, which a connection to it comes from too, so the server sees a peer
/// that is not 127.0.0.1 without a second machine.
@Suite("Protected mode: no passwords in clear from other machines", .timeLimit(.minutes(30)))
struct ProtectedModeTests {
  /// This machine's first IPv4 address outside 127.0.0.0/8, on an interface that is up.
  static func ownAddress() -> String? {
    var list: UnsafeMutablePointer<ifaddrs>?
    guard getifaddrs(&list) == 0 else { return nil }
    defer { freeifaddrs(list) }
    var entry = list
    while let current = entry {
      entry = current.pointee.ifa_next
      guard let address = current.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
        current.pointee.ifa_flags & UInt32(IFF_UP) != 0
      else { continue }
      var v4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
      var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
      guard inet_ntop(AF_INET, &v4, &text, socklen_t(text.count)) != nil else { continue }
      let string = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if !string.hasPrefix("127.") { return string }
    }
    return nil
  }

  private static let passwordCommands = [
    "LOGIN admin \(Quoting.quote(LineClient.password(for: "admin")))",
    "REGISTER newcomer \"a long passphrase\"",
    "PASSWD \"old passphrase\" \"new passphrase\"",
    "USER ADD clerk \"a long passphrase\" role=staff",
    "USER PASSWD admin \"a new passphrase\"",
  ]

  @Test("plaintext from another address: every command that carries a password is refused, the rest served")
  func refusedInClear() throws {
    let address = try #require(Self.ownAddress(), "no non-loopback IPv4 address on this machine to test from")
    let server = try TestServer(transport: .tls) { $0.host = address }
    let plain = try LineClient(port: server.port, address: address)
    _ = try plain.readReply()
    for line in Self.passwordCommands {
      let reply = try plain.request(line)
      #expect(reply.errorCode == .denied, "\(line): \(reply.lines)")
      #expect(reply.message.contains("not encrypted"))
      #expect(reply.message.contains("--allow-plaintext-auth"))
      #expect(reply.message.contains("stockroom --tls"))
      #expect(!reply.message.contains("passphrase"), "a refusal never repeats the password")
    }
    // Everything without a password works as before, guests' orders included.
    #expect(try plain.request("PING").isOK)
    #expect(try plain.request("ORDER banana_juice").isOK)
    #expect(try plain.request("WHOAMI").message.hasPrefix("guest"))
    // The same commands over TLS from the same address are served.
    let secure = try LineClient(
      port: try #require(server.tlsPort), tls: try TestTransport.clientContext(), address: address,
      verifyHost: "127.0.0.1")
    _ = try secure.readReply()
    #expect(try secure.request(Self.passwordCommands[0]).isOK)
    #expect(try secure.request("REGISTER newcomer \"a long passphrase\"").isOK)
  }

  @Test("bound to every address, a loopback peer may log in in clear and another may not")
  func loopbackPeerAllowed() throws {
    let address = try #require(Self.ownAddress(), "no non-loopback IPv4 address on this machine to test from")
    let server = try TestServer { $0.host = "0.0.0.0" }
    let local = try server.client()
    #expect(try local.request(Self.passwordCommands[0]).isOK)
    let remote = try LineClient(port: server.port, address: address)
    _ = try remote.readReply()
    let refused = try remote.request(Self.passwordCommands[0])
    #expect(refused.errorCode == .denied)
    #expect(refused.message.contains("no TLS port"), "\(refused.message)")
  }

  @Test("--allow-plaintext-auth lets another address log in in clear")
  func allowed() throws {
    let address = try #require(Self.ownAddress(), "no non-loopback IPv4 address on this machine to test from")
    let server = try TestServer {
      $0.host = address
      $0.allowPlaintextAuth = true
    }
    let remote = try LineClient(port: server.port, address: address)
    _ = try remote.readReply()
    #expect(try remote.request(Self.passwordCommands[0]).isOK)
    #expect(try remote.request("WHOAMI").message.hasPrefix("admin"))
  }

  @Test("the TLS options parse, and half of them alone are refused")
  func options() throws {
    // The files must be readable to be accepted (OptionSettings.finish), so real ones.
    let certificates = try TestCertificates.shared()
    let (certificate, key, ca) = (certificates.serverCertificate, certificates.serverKey, certificates.ca)
    let parsed = try ServerConfiguration.parse(
      ["--tls-cert", certificate, "--tls-key", key, "--tls-port", "0", "--tls-ca", ca, "--allow-plaintext-auth"],
      defaultConfigFile: nil)
    guard case .run(let configuration) = parsed else {
      Issue.record("not a run: \(parsed)")
      return
    }
    #expect(configuration.tls?.certificate == certificate)
    #expect(configuration.tls?.key == key)
    #expect(configuration.tls?.port == 0)
    #expect(configuration.tls?.clientCA == ca)
    #expect(configuration.allowPlaintextAuth)
    guard
      case .run(let defaults) = try ServerConfiguration.parse(
        ["--tls-cert", certificate, "--tls-key", key], defaultConfigFile: nil)
    else {
      Issue.record("not a run")
      return
    }
    #expect(defaults.tls?.port == ProtocolVersion.defaultTLSPort)
    #expect(!defaults.allowPlaintextAuth)
    #expect(throws: ServerConfiguration.UsageError.self) {
      try ServerConfiguration.parse(["--tls-cert", certificate], defaultConfigFile: nil)
    }
    #expect(throws: ServerConfiguration.UsageError.self) {
      try ServerConfiguration.parse(["--tls-port", "7000"], defaultConfigFile: nil)
    }
    #expect(throws: ServerConfiguration.UsageError.self) {
      try ServerConfiguration.parse(
        ["--tls-cert", certificate, "--tls-key", key, "--port", "7000", "--tls-port", "7000"], defaultConfigFile: nil)
    }
  }
}
