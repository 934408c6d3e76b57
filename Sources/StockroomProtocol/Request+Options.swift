extension Request {
  /// An option the command table marks required: the table's checks have already refused a
  /// request without it, so a missing one here is a table and handler out of step, answered as
  /// a syntax error rather than a crash.
  public func required(_ key: OptionKey) throws(ProtocolError) -> String {
    guard let value = options[key] else {
      throw ProtocolError(.syntax, "\(path) needs \(key.word)")
    }
    return value
  }
}
