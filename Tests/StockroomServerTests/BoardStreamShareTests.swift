import Foundation
import StockroomServer
import StockroomTransport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The board's 64 event streams shared between addresses (issue 41): two hosts with 32 streams
/// each used to hold them all, and the next browser got 503.
@Suite("the board's event streams, shared between addresses", .timeLimit(.minutes(30)))
struct BoardStreamShareTests {
  /// Opens `count` streams from `host`; the ones answered 200, each read to its snapshot.
  private func streams(_ count: Int, from host: String, port: UInt16) throws -> [EventStreamClient] {
    try (0..<count).compactMap { _ in
      let stream = try EventStreamClient(port: port, from: host)
      guard stream.head.hasPrefix("HTTP/1.1 200 ") else { return nil }
      #expect(try stream.next().type == "snapshot")
      return stream
    }
  }

  @Test("hosts that ask for every stream get 8 each, and a newcomer's stream is served while 8 hosts hold all 64")
  func newcomerIsServed() throws {
    let server = try TestServer { $0.http = ListenAddress(host: "127.0.0.1", port: 0) }
    defer { withExtendedLifetime(server) {} }
    let port = try server.server.startHTTP()
    // The finding: two hosts, 32 streams each. Each gets its share (8), no more.
    var held = try ["127.0.0.2", "127.0.0.3"].map { try streams(32, from: $0, port: port) }
    #expect(held.map(\.count) == [8, 8])
    // Six more hosts take their eight each: every one of the 64 places is held.
    for host in 4...9 { held.append(try streams(32, from: "127.0.0.\(host)", port: port)) }
    #expect(held.map(\.count) == Array(repeating: 8, count: 8))
    // Browsers from 127.0.0.1 and 127.0.0.10, which hold none, are each served: a stream of
    // a host holding the most makes way.
    for host in ["127.0.0.1", "127.0.0.10"] {
      let newcomer = try EventStreamClient(port: port, from: host)
      #expect(newcomer.head.hasPrefix("HTTP/1.1 200 "), "\(host): \(newcomer.head)")
      #expect(try newcomer.next().type == "snapshot")
    }
    // And a host that already holds 8 is refused a ninth while the others hold as many.
    let ninth = try EventStreamClient(port: port, from: "127.0.0.4")
    #expect(ninth.head.hasPrefix("HTTP/1.1 503 "), "\(ninth.head)")
  }
}
