/// The handlers of a loop's registered descriptors, by descriptor number. Every event looks its
/// handler up here, and an array indexed by the number costs a load where a dictionary hashes
/// it; the kernel hands out the lowest free number, so the array is as long as the most
/// descriptors the process has had open at once (as the dictionary's storage was), not longer.
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
