/// The board's page: a frame the script fills from `/events`, and the join link for the phones
/// in the room, printed and as a QR code (`/join.svg`). Everything it loads is served by
/// stockroomd itself: no font, script or style from elsewhere (the CSP says so too).
enum BoardPage {
  static func html(joinURL: String) -> String {
    let link = HTMLText.escaped(joinURL)
    let head = HTMLHead.html(
      title: "Stockroom — live stock",
      loads: ["<link rel=\"stylesheet\" href=\"/board.css\">", "<script src=\"/board.js\" defer></script>"])
    return head + """
      <body>
      <header>
        <h1>Stockroom</h1>
        <p id="status" class="status" data-state="connecting">connecting…</p>
      </header>
      <p id="banner" class="banner" role="alert" hidden></p>
      <section class="figures" aria-label="figures">
        <div><span class="label">orders/s</span><span id="rate" class="value">–</span></div>
        <div><span class="label">orders</span><span id="orders" class="value">–</span></div>
        <div><span class="label">connections</span><span id="connections" class="value">–</span></div>
        <div><span class="label">store</span><span id="store" class="value">–</span></div>
      </section>
      <main>
        <section id="stock" class="stock" aria-label="stock"></section>
        <aside aria-label="recent orders">
          <a id="join" class="join" href="/join"><img src="/join.svg" alt="QR code of the join link">
            <span>Order from your phone: <span id="join-url">\(link)</span></span></a>
          <h2>Recent orders</h2>
          <ol id="recent" class="recent"></ol>
        </aside>
      </main>
      </body>
      </html>

      """
  }
}
