/// How a connection's bytes travel, decided at accept from the port and the peer's address:
/// whether a password sent on it can be read by others on the way.
package enum TransportSecurity: Sendable, Equatable {
  /// Inside TLS.
  case tls
  /// In clear from this machine (127.0.0.0/8, ::1): nothing crossed a network.
  case plaintextLocal
  /// In clear from another machine: anyone on the path can read it.
  case plaintextNetwork

  /// Whether a password may be sent on it without `--allow-plaintext-auth`.
  package var protectsSecrets: Bool { self != .plaintextNetwork }
}
