/// The handlers of a loop's registered descriptors, by descriptor number. Every event looks its
/// handler up here, and an array indexed by the number costs a load where a dictionary hashes
/// it. The array reaches the highest number registered on this loop, and the kernel hands out
/// the lowest free one, so it is about as long as the most descriptors the process has had
/// open at once: 24 bytes a number, on every loop. The dictionary took 37 bytes or more an entry
/// (keys, values, a load factor of at most 3/4), for its own loop's only; with two loops the
/// two cost about the same per connection.
struct HandlerTable {
  /// A registered descriptor's handler and the registration it belongs to.
  struct Entry {
    let generation: UInt32
    let handler: any EventLoop.Handler
  }

  private var entries: [Entry?] = []

  subscript(fd: Int32) -> Entry? {
    get { fd >= 0 && Int(fd) < entries.count ? entries[Int(fd)] : nil }
    set {
      let index = Int(fd)
      precondition(index >= 0, "a descriptor number is never negative")
      if index >= entries.count {
        guard newValue != nil else { return }
        entries.append(contentsOf: repeatElement(nil, count: index + 1 - entries.count))
      }
      entries[index] = newValue
    }
  }

  /// Every registration, for the rare walks over all of them (shutdown, settling, the end).
  var all: [Entry] { entries.compactMap { $0 } }

  mutating func removeAll() { entries = [] }
}
