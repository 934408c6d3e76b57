/// One request line for the fuzzer, without its LF, with what the server must do after it worked
/// out once: a line taken from the pool many times is tokenized for its fate only when it is made.
struct FuzzLine: Sendable {
  let bytes: [UInt8]
  let fate: FuzzExpectation.Fate
  /// A LOGIN or PASSWD the table accepts: each may fail, and the fifth failure closes.
  let isPasswordAttempt: Bool

  init(_ bytes: [UInt8], maxLine: Int) {
    self.bytes = bytes
    fate = FuzzExpectation.fate(of: bytes, maxLine: maxLine)
    isPasswordAttempt = fate == .answered && FuzzExpectation.isPasswordAttempt(bytes)
  }
}
