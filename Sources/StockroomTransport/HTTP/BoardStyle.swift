/// The board's style: every section on one screen of a wall or a laptop (columns that fill, the
/// type made smaller by the script before the page would scroll), recent orders first on a
/// phone, light or dark as the viewer prefers, and only fonts the viewer's machine has (Korean
/// and emoji included). A bar's colours are the terminal's (`Palette.bar`).
enum BoardStyle {
  static let css = """
    :root {
      --bg: #fbfaf7; --fg: #1b1b1b; --muted: #5d5d5d; --card: #ffffff; --line: #dedbd3;
      --full: #2f8f4e; --half: #c9a01b; --out: #c0392b; --track: #e9e6de;
      font-family: system-ui, -apple-system, "Segoe UI", "Noto Sans", "Noto Sans CJK KR", "NanumGothic",
        "Apple SD Gothic Neo", "Malgun Gothic", sans-serif, "Noto Color Emoji", "Apple Color Emoji",
        "Segoe UI Emoji";
      font-size: clamp(14px, min(1.25vw, 2.2vh), 28px);
    }
    @media (prefers-color-scheme: dark) {
      :root {
        --bg: #121417; --fg: #f1f1f1; --muted: #a9adb3; --card: #1c1f24; --line: #30343b;
        --full: #4cc47a; --half: #f0c93b; --out: #ff6b5b; --track: #2a2e35;
      }
    }
    * { box-sizing: border-box; }
    body { margin: 0; padding: 0.8rem 1.2rem; background: var(--bg); color: var(--fg); line-height: 1.25; }
    /* The wall's board is one screen tall at least, its main row taking what the header and the
       figures leave, so the recent orders beside the stock fill the screen's height. */
    body:not(.phone) { display: flex; flex-direction: column; min-height: 100vh; }
    body:not(.phone) > main { flex: 1 0 auto; }
    header { display: flex; align-items: baseline; gap: 1.2rem; flex-wrap: wrap; }
    h1 { font-size: 1.8rem; margin: 0; }
    h2 { font-size: 1.15rem; margin: 0 0 0.3rem; }
    .status { margin: 0; font-size: 1.1rem; color: var(--muted); }
    .status[data-state="live"]::before { content: "● "; color: var(--full); }
    .status[data-state="lost"]::before { content: "● "; color: var(--out); }
    .banner { background: var(--out); color: #fff; padding: 0.5rem 1rem; border-radius: 0.5rem; font-weight: 700;
      font-size: 1.4rem; margin: 0.6rem 0 0; }
    .banner[hidden] { display: none; }
    body[data-stale] .figures, body[data-stale] main { opacity: 0.4; filter: grayscale(1); }
    .figures { display: grid; grid-template-columns: repeat(4, minmax(0, 1fr)); gap: 0.6rem; margin: 0.6rem 0; }
    .figures div { background: var(--card); border: 1px solid var(--line); border-radius: 0.5rem; padding: 0.3rem 0.8rem;
      display: flex; align-items: baseline; justify-content: space-between; gap: 0.6rem; }
    .label { color: var(--muted); font-size: 0.95rem; }
    .value { font-size: 1.7rem; font-weight: 700; font-variant-numeric: tabular-nums; }
    #store[data-state="down"], #store[data-state="read-only"], #store[data-state="unreachable"] { color: var(--out); }
    main { display: grid; grid-template-columns: minmax(0, 4fr) minmax(14rem, 1fr); gap: 1.4rem; }
    .stock { columns: 12rem; column-gap: 1.4rem; }
    .group h2 { border-bottom: 2px solid var(--line); padding-bottom: 0.1rem; break-after: avoid; }
    .group + .group h2 { margin-top: 0.6rem; }
    .item { display: grid; grid-template-columns: minmax(0, 1fr) auto; align-items: baseline;
      column-gap: 0.5rem; padding: 0.12rem 0 0.3rem; break-inside: avoid; }
    .name { font-size: 1.05rem; overflow-wrap: anywhere; }
    .level { font-size: 1.25rem; font-weight: 700; font-variant-numeric: tabular-nums; }
    .bar { grid-column: 1 / -1; height: 0.45rem; background: var(--track); border-radius: 0.25rem; overflow: hidden; }
    .bar span { display: block; height: 100%; background: var(--full); transition: width 0.4s; }
    .item[data-state="half"] .bar span { background: var(--half); }
    .item[data-state="low"] .bar span { background: var(--out); }
    .item[data-state="out"] .level { color: var(--out); }
    .item.changed .level { animation: flash 1s; }
    @keyframes flash { from { color: var(--half); } }
    /* The column is as tall as the stock beside it, never taller: the oldest orders are cut. */
    aside { contain: size; min-height: 16rem; overflow: hidden; }
    /* The join link and its QR code, for the phones in the room: dark on white, as a camera needs. */
    .join { display: flex; gap: 0.6rem; align-items: center; margin-bottom: 0.6rem; color: var(--fg);
      text-decoration: none; font-size: 0.9rem; overflow-wrap: anywhere; }
    .join img { width: 7rem; height: 7rem; flex: none; border-radius: 0.3rem; }
    .recent { list-style: none; margin: 0; padding: 0; }
    .recent li { border-bottom: 1px solid var(--line); padding: 0.3rem 0; font-size: 1.05rem; word-break: keep-all;
      overflow-wrap: anywhere; }
    .recent .when { color: var(--muted); font-variant-numeric: tabular-nums; margin-right: 0.5rem; }
    .recent .took { display: block; color: var(--muted); font-size: 0.9rem; }
    @media (max-width: 700px) {
      :root { font-size: 15px; }
      body { padding: 0.6rem; }
      header { gap: 0.8rem; }
      .figures { grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 0.4rem; }
      body:not(.phone) { display: block; }
      main { grid-template-columns: minmax(0, 1fr); gap: 0.8rem; }
      /* Orders first, a few at a time: the stock follows within the same screen. */
      aside { contain: none; min-height: 0; order: -1; }
      .recent { max-height: 12rem; overflow-y: auto; }
      /* A phone is already in the hand: the link alone, one line. */
      .join img { display: none; }
      .join { margin-bottom: 0.3rem; }
      .stock { columns: 2 9rem; column-gap: 1rem; }
    }

    """
}
