import Foundation
import StockroomDomain
import StockroomProtocol
import StockroomText

extension CommandHandler {
  package func help(_ request: Request, out: inout ReplyEncoder) throws {
    guard let word = request.arguments.first?.text else {
      for spec in CommandTable.commands { listed(spec, out: &out) }
      for group in CommandGroup.allCases {
        out.beginRow(group.label)
        out.kind(.group)
        // ", " between names: `USER ADD STOCKTAKE` read as one command `USER ADD`.
        out.field("commands", group.commands.map(\.name).joined(separator: ", "))
        out.field("summary", group.summary)
        out.endLine()
      }
      out.ok(
        "\(CommandTable.commands.count) commands in \(CommandGroup.allCases.count) groups; "
          + "HELP <command> or HELP @<group> for one")
      return
    }
    if word.hasPrefix("@") {
      let group = try CommandGroup.named(word)
      for spec in group.commands { listed(spec, out: &out) }
      out.ok(group.label)
      return
    }
    guard let spec = CommandTable.command(named: word) else {
      throw ProtocolError(
        .unknown,
        "unknown command \(Echo.quoted(word))"
          + NameSuggestion.didYouMean(word, among: CommandTable.commands.map(\.name)))
    }
    func describe(_ spec: CommandSpec, path: String) {
      out.beginRow(path)
      out.field("usage", spec.usage(path: path))
      out.field("summary", spec.summary)
      out.field("group", spec.group.rawValue)
      out.field("role", spec.role.rawValue)
      out.field("flags", spec.flags.map(\.rawValue).sorted().joined(separator: ","))
      out.endLine()
      for option in spec.options {
        out.beginRow(path)
        out.field("option", option.key.word)
        out.field("summary", option.summary)
        out.field("required", option.isRequired)
        out.endLine()
      }
      for restriction in spec.restrictions {
        out.beginRow(path)
        out.field("restricted", restriction.label)
        out.field("role", restriction.role.rawValue)
        out.field("summary", restriction.reason)
        out.endLine()
      }
      for example in spec.examples {
        out.beginRow(path)
        out.field("example", example)
        out.endLine()
      }
    }
    describe(spec, path: spec.name)
    for sub in spec.subcommands { describe(sub, path: "\(spec.name) \(sub.name)") }
    out.ok(spec.name)
  }

  /// A command as plain HELP and `HELP @group` list it: one row, without its options and examples.
  private func listed(_ spec: CommandSpec, out: inout ReplyEncoder) {
    out.beginRow(spec.name)
    out.field("group", spec.group.rawValue)
    out.field("usage", spec.usage(path: spec.name))
    out.field("summary", spec.summary)
    out.endLine()
  }

  /// The handshake: which protocol this server speaks and who the connection is. It grants
  /// nothing; only LOGIN (or REGISTER) makes a connection someone.
  package func hello(session: Session, role: Role, out: inout ReplyEncoder) {
    out.ok(
      "hello",
      fields: [
        ("protocol", String(ProtocolVersion.current)), ("server", ProtocolVersion.serverVersion),
        ("user", session.user), ("role", role.rawValue),
      ])
  }

  /// One row, `* stockroomd`, with the fields of the sections asked for (all when none), in
  /// section order; a field keeps its name whichever way it is asked for, so a client reading
  /// `clients=` from plain INFO reads it from `INFO clients` too.
  package func info(_ request: Request, session: Session, role: Role, out: inout ReplyEncoder) throws(ProtocolError) {
    var asked: Set<InfoSection> = []
    for word in request.arguments {
      guard let section = InfoSection(rawValue: word.text.lowercased()) else {
        let names = InfoSection.allCases.map(\.rawValue)
        throw ProtocolError(
          .notFound,
          "no INFO section \(Echo.quoted(word.text)); sections: \(names.joined(separator: " "))"
            + NameSuggestion.didYouMean(word.text, among: names))
      }
      asked.insert(section)
    }
    out.beginRow("stockroomd")
    for section in InfoSection.allCases where asked.isEmpty || asked.contains(section) {
      switch section {
      case .server: infoServer(out: &out)
      case .clients: infoClients(session: session, role: role, out: &out)
      case .store: infoStore(session: session, role: role, out: &out)
      case .stats: infoStats(out: &out)
      }
    }
    out.endLine()
    out.ok()
  }

  private func infoServer(out: inout ReplyEncoder) {
    out.field("version", ProtocolVersion.serverVersion)
    out.field("protocol", ProtocolVersion.current)
    out.field("uptime_seconds", stats.uptimeSeconds)
    out.field("max_line", settings.maxLine)
    out.field("registration", settings.registration.rawValue)
    out.field("io", settings.io)
    out.field("loops", settings.loops)
  }

  private func infoClients(session: Session, role: Role, out: inout ReplyEncoder) {
    out.field("clients", clientCount())
    out.field("max_clients", settings.maxClients)
    out.field("watchers", shop.hub.watcherCount)
    out.field("throttled_names", throttle.trackedNames)
    out.field("user", session.user)
    out.field("role", role.rawValue)
  }

  /// How this node's reads of its cache wait for the store (`--reads`).
  private func infoReads(_ shared: SharedFigures, out: inout ReplyEncoder) {
    out.field("reads", shared.reads.rawValue)
    out.field("reads_waited", shared.readsWaited)
    out.field("read_catchups", shared.readCatchUps)
    out.field("reads_unconfirmed", shared.readsUnconfirmed)
  }

  private func infoStore(session: Session, role: Role, out: inout ReplyEncoder) {
    let (products, diaryEntries, history, generation) = shop.read { state in
      (
        state.products.count, session.account.map { state.diaryCount(of: $0) } ?? 0, shop.listedOrders(state),
        state.namesGeneration
      )
    }
    if let history = shop.history, let figures = shop.commitFigures {
      out.field("storage", history.kind.rawValue)
      // Where the shop lives on the machine is the operator's business, not a visitor's.
      if role >= .staff { out.field("data", history.location) }
      out.field("fsync", settings.fsync.description)
      out.field("commits", figures.commits.load(ordering: .relaxed))
      out.field("committed_changes", figures.committedMutations.load(ordering: .relaxed))
      out.field("largest_commit", figures.largestBatch.load(ordering: .relaxed))
    } else {
      out.field("storage", "memory")
    }
    if let shared = shop.changes.sharedFigures {
      out.field("node", shared.node)
      out.field("store_link", shared.connected ? "up" : "down")
      out.field("store_change", shared.sequence)
      out.field("changes_waiting", shared.waiting)
      out.field("replayed_changes", shared.replayed)
      out.field("commit_retries", shared.retries)
      out.field("store_reloads", shared.reloads)
      infoReads(shared, out: &out)
    }
    let readOnly = shop.readOnlyReason
    out.field("read_only", readOnly != nil)
    if let readOnly { out.field("read_only_reason", readOnly) }
    out.field("orders_listed", history)
    out.field("products", products)
    out.field("diary_entries", diaryEntries)
    out.field("names_generation", generation)
  }

  private func infoStats(out: inout ReplyEncoder) {
    out.field("connections_total", stats.totalConnections.load(ordering: .relaxed))
    out.field("connections_rejected", stats.rejectedConnections.load(ordering: .relaxed))
    out.field("commands", stats.commandsServed.load(ordering: .relaxed))
    out.field("failed_logins", stats.failedLogins.load(ordering: .relaxed))
    out.field("orders", shop.read { $0.ordersMade })
    out.field("shortages", stats.shortages.load(ordering: .relaxed))
    out.field("events_dropped", stats.eventsDropped.load(ordering: .relaxed))
    out.field("slow_consumer_disconnects", stats.slowConsumerDisconnects.load(ordering: .relaxed))
    out.field("store_errors", shop.commitFigures?.failureCount ?? 0)
  }

  /// A place among the watchers' for a connection starting to watch (`WatcherPlaces`); taken
  /// once what it names is known to be watchable, so a refused WATCH holds none.
  private func takeWatcherPlace(_ session: Session) throws {
    guard session.watching == nil, let id = session.connectionID else { return }
    switch watcherPlaces.admit(id, from: session.source) {
    case .admitted: return
    case .sourceFull:
      throw ProtocolError(
        .limit,
        "too many watchers from your address: \(watcherPlaces.perSource) at once; UNWATCH or close one and try again")
    case .full:
      throw ProtocolError(
        .limit,
        "too many watchers: \(watcherPlaces.total) at once, and your address holds as many as any; try again later")
    }
  }

  package func watch(_ request: Request, session: inout Session, out: inout ReplyEncoder) throws {
    // A watcher that starts while the shared store is down would otherwise not know its levels
    // may be stale until the `! store state=up` that comes when it is back.
    let link: [(String, String)] = shop.linkDown ? [("store", "down")] : []
    if request.arguments.isEmpty {
      try takeWatcherPlace(session)
      session.watching = []
      out.ok(fields: [("watching", "all")] + link)
      return
    }
    let items = try shop.read { state throws(ShopError) in
      var items: [String] = []
      for word in request.arguments {
        switch try state.resolveStocked(word.text, allowJuice: true) {
        case .juice(let juice): items += juice.recipe.map(\.item)
        case let ref: items.append(ref.id)
        }
      }
      return items
    }
    try takeWatcherPlace(session)
    var watching = session.watching ?? Set()
    if watching.isEmpty && session.watching != nil {
      // Already watching everything; naming items does not narrow that.
      out.ok(fields: [("watching", "all")] + link)
      return
    }
    watching.formUnion(items)
    session.watching = watching
    out.ok(fields: [("watching", watching.sorted().joined(separator: " "))] + link)
  }
}
