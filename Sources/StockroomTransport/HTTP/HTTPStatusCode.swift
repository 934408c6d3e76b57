/// The statuses the board's server answers with.
package enum HTTPStatusCode: UInt32, Sendable {
  case ok = 200
  case badRequest = 400
  case notFound = 404
  case methodNotAllowed = 405
  case contentTooLarge = 413
  case serviceUnavailable = 503
}
