import Foundation

extension LineClient {
  /// Sends `request` `count` times, `pipeline` at a time, and reads every reply, which must be
  /// OK: the steady load the budget tests count a server's work under.
  func drive(_ request: String, count: Int, pipeline: Int) throws {
    var sent = 0
    while sent < count {
      let batch = min(pipeline, count - sent)
      try send(String(repeating: request + "\n", count: batch))
      for _ in 0..<batch {
        let reply = try readReply()
        guard reply.isOK else { throw LineClient.Failure(description: "\(request): \(reply.lines)") }
      }
      sent += batch
    }
  }
}
