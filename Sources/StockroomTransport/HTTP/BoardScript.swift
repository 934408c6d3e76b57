/// The board's script: reads `/events` with EventSource (which reconnects by itself, sending
/// `Last-Event-ID`, and gets the whole board again as `resync`) and keeps the page in line with
/// it, without a reload. Names reach the page only as text, never as markup.
enum BoardScript {
  static let javascript = #"""
    "use strict";
    const board = { items: new Map(), sections: [], recent: [], last: null, orders: 0, counted: 0, store: "up", lostSince: null };
    // As many orders as the server's `recent` holds (BoardEventEncoder.recentOrders).
    const recentOrders = 12;
    const byId = (id) => document.getElementById(id);

    function element(tag, className, text) {
      const node = document.createElement(tag);
      if (className) node.className = className;
      if (text !== undefined) node.textContent = text;
      return node;
    }

    // The bar STOCK and `stockroom top` draw: against the starting level, full once past it.
    function fraction(level, initial) {
      if (level <= 0) return 0;
      if (initial <= 0) return 1;
      return Math.min(1, level / initial);
    }

    function itemNode(item) {
      const row = element("div", "item");
      row.dataset.item = item.id;
      row.append(element("span", "name", item.name), element("span", "level"));
      const track = element("div", "bar");
      track.append(element("span"));
      row.append(track);
      item.node = row;
      drawItem(item, false);
      return row;
    }

    function drawItem(item, changed) {
      const row = item.node;
      if (!row) return;
      const share = fraction(item.level, item.initial);
      row.querySelector(".level").textContent = String(item.level);
      row.querySelector(".bar span").style.width = (share * 100).toFixed(1) + "%";
      // The terminal's thresholds (Palette.bar): red below a quarter, yellow below a half.
      row.dataset.state = item.level <= 0 ? "out" : share < 0.25 ? "low" : share < 0.5 ? "half" : "ok";
      if (changed) {
        row.classList.remove("changed");
        void row.offsetWidth;
        row.classList.add("changed");
      }
    }

    function group(title, items) {
      const box = element("section", "group");
      box.append(element("h2", null, title));
      const list = element("div", "items");
      for (const item of items) list.append(itemNode(item));
      box.append(list);
      return box;
    }

    function drawStock() {
      const all = [...board.items.values()];
      const stock = byId("stock");
      stock.replaceChildren();
      const fruits = all.filter((item) => item.kind === "fruit");
      if (fruits.length) stock.append(group("Fruit", fruits));
      for (const section of board.sections) {
        const dishes = all.filter((item) => item.kind === "dish" && item.section === section.id);
        if (dishes.length) stock.append(group(section.name, dishes));
      }
      const products = all.filter((item) => item.kind === "product");
      if (products.length) stock.append(group("Products", products));
      fit();
    }

    // On a wall or a laptop every section fits on one screen: the type shrinks until the page
    // no longer scrolls (a phone scrolls instead, its orders first).
    function fit() {
      const root = document.documentElement;
      root.style.fontSize = "";
      if (window.innerWidth <= 700) return;
      let size = parseFloat(getComputedStyle(root).fontSize);
      while (root.scrollHeight > window.innerHeight && size > 8) {
        size -= 0.5;
        root.style.fontSize = size + "px";
      }
    }

    function drawStore(state, reason) {
      board.store = state;
      const node = byId("store");
      node.textContent = state === "down" ? "store=down" : state === "read-only" ? "read-only" : "up";
      node.dataset.state = state;
      node.title = reason || "";
    }

    const listed = (lines) => lines.map((line) => line.name + " ×" + line.count).join(", ");

    function drawRecent() {
      const list = byId("recent");
      list.replaceChildren();
      for (const order of board.recent) {
        const entry = element("li");
        entry.append(element("span", "when", order.time));
        // As ordered; what it took only when that differs (a juice takes its fruit). An order
        // known so far by its stock events alone shows what it took until `recent` names it.
        const ordered = listed(order.lines);
        entry.append(element("span", "what", "#" + order.id + " " + ordered + (order.user ? " · " + order.user : "")));
        const took = listed(order.took);
        if (took && took !== ordered) entry.append(element("span", "took", "took " + took));
        list.append(entry);
      }
    }

    // The server's newest orders, as ordered; an order seen in stock events that it did not
    // have yet stays until the next `recent` holds it.
    function setRecent(orders) {
      const newest = orders.length ? orders[0].id : 0;
      const seen = board.recent.filter((order) => order.id > newest);
      const known = orders.map((order) => ({
        id: order.id, lines: order.lines, took: order.took, user: order.user,
        time: new Date(order.placed).toTimeString().slice(0, 8),
      }));
      board.recent = seen.concat(known).slice(0, recentOrders);
      drawRecent();
    }

    function noteOrder(event) {
      let order = board.recent.find((entry) => entry.id === event.order);
      if (!order) {
        const time = new Date().toTimeString().slice(0, 8);
        order = { id: event.order, lines: [], took: [], user: event.user, time: time, seen: true };
        board.recent.unshift(order);
        board.recent.sort((a, b) => b.id - a.id);
        board.recent.length = Math.min(board.recent.length, recentOrders);
      }
      // Counted as it is seen, unless the last stats event, which named the newest order it
      // counted, already has it (order ids grow in commit order, which is the events' order).
      if (event.order > board.counted) {
        board.counted = event.order;
        board.orders += 1;
        byId("orders").textContent = String(board.orders);
      }
      if (order.seen) order.took.push({ name: event.name, count: -event.change });
      drawRecent();
    }

    function drawStats(stats) {
      const now = performance.now();
      if (board.last && now > board.last.time) {
        const rate = Math.max(0, stats.orders - board.last.orders) / ((now - board.last.time) / 1000);
        byId("rate").textContent = rate < 10 ? rate.toFixed(1) : String(Math.round(rate));
      }
      board.last = { orders: stats.orders, time: now };
      // Orders seen after the newest one it counted (its events came first) are added to it.
      board.orders = stats.orders + Math.max(0, board.counted - stats.order);
      board.counted = Math.max(board.counted, stats.order);
      byId("orders").textContent = String(board.orders);
      byId("connections").textContent = String(stats.connections);
      if (stats.store) drawStore(stats.store, stats.reason);
      if (stats.recent) setRecent(stats.recent);
    }

    function whole(event) {
      board.items = new Map(event.items.map((item) => [item.id, item]));
      board.sections = event.sections;
      // A new server's shop may number its orders from 1 again.
      board.counted = 0;
      board.recent = [];
      found();
      drawStock();
      drawStore(event.store, event.reason);
      drawStats(event.stats);
    }

    function stock(event) {
      let item = board.items.get(event.item);
      if (!item) {
        item = { id: event.item, name: event.name, kind: "product", level: event.level, initial: event.level };
        board.items.set(item.id, item);
        drawStock();
      }
      item.level = event.level;
      if (event.cause === "delisted") {
        board.items.delete(item.id);
        drawStock();
      } else {
        drawItem(item, true);
      }
      if (event.cause === "order") noteOrder(event);
    }

    function received(message) {
      const event = JSON.parse(message.data);
      switch (event.type) {
        case "snapshot":
        case "resync":
          whole(event);
          break;
        case "stock":
          stock(event);
          break;
        case "store":
          drawStore(event.state, event.reason);
          break;
        case "stats":
          drawStats(event);
          break;
      }
      document.body.dataset.events = String((Number(document.body.dataset.events) || 0) + 1);
    }

    function status(state, text) {
      const node = byId("status");
      node.dataset.state = state;
      node.textContent = text;
    }

    // The stream is lost: nothing on the page is known to be true any more, and it says so
    // plainly (dimmed, a banner with the time it was lost, the store unknown), not only in
    // the status line, until a stream brings the whole board again.
    function lost() {
      if (!board.lostSince) board.lostSince = new Date();
      document.body.dataset.stale = "true";
      const banner = byId("banner");
      banner.textContent = "server unreachable since " + board.lostSince.toTimeString().slice(0, 8);
      banner.hidden = false;
      byId("rate").textContent = "–";
      board.last = null;
      const store = byId("store");
      store.textContent = "unreachable";
      store.dataset.state = "unreachable";
      fit();
    }

    function found() {
      board.lostSince = null;
      delete document.body.dataset.stale;
      byId("banner").hidden = true;
      fit();
    }

    function connect() {
      const source = new EventSource("/events");
      source.onopen = () => status("live", "live");
      source.onmessage = received;
      source.onerror = () => {
        status("lost", "reconnecting…");
        lost();
        // EventSource retries by itself unless the server refused the stream outright.
        if (source.readyState === EventSource.CLOSED) setTimeout(connect, 3000);
      };
    }

    window.addEventListener("resize", fit);
    connect();

    """#
}
