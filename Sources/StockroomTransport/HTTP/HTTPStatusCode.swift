/// The statuses the board's server answers with.
package enum HTTPStatusCode: UInt32, Sendable {
  case ok = 200
  case badRequest = 400
  case forbidden = 403
  case notFound = 404
  case methodNotAllowed = 405
  case conflict = 409
  case contentTooLarge = 413
  case tooManyRequests = 429
  case internalServerError = 500
  case serviceUnavailable = 503
}
