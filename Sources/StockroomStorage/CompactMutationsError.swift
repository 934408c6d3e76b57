/// A change log entry that starts like the compact form but does not follow it.
struct CompactMutationsError: Error {
  /// Where in the entry reading stopped, in bytes; never the entry's text.
  let offset: Int
}
