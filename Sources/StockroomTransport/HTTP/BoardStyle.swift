/// The board's style: large type for the back of a room, one column on a phone, light or dark
/// as the viewer prefers, and only fonts the viewer's machine has (Korean and emoji included).
enum BoardStyle {
  static let css = """
    :root {
      --bg: #fbfaf7; --fg: #1b1b1b; --muted: #5d5d5d; --card: #ffffff; --line: #dedbd3;
      --full: #2f8f4e; --low: #c9821b; --out: #c0392b; --track: #e9e6de;
      font-family: system-ui, -apple-system, "Segoe UI", "Noto Sans", "Noto Sans CJK KR", "NanumGothic",
        "Apple SD Gothic Neo", "Malgun Gothic", sans-serif, "Noto Color Emoji", "Apple Color Emoji",
        "Segoe UI Emoji";
      font-size: clamp(16px, 1.25vw, 28px);
    }
    @media (prefers-color-scheme: dark) {
      :root {
        --bg: #121417; --fg: #f1f1f1; --muted: #a9adb3; --card: #1c1f24; --line: #30343b;
        --full: #4cc47a; --low: #f0a93b; --out: #ff6b5b; --track: #2a2e35;
      }
    }
    * { box-sizing: border-box; }
    body { margin: 0; padding: 1.2rem 1.6rem; background: var(--bg); color: var(--fg); line-height: 1.3; }
    header { display: flex; align-items: baseline; gap: 1.2rem; flex-wrap: wrap; }
    h1 { font-size: 2.2rem; margin: 0; }
    h2 { font-size: 1.4rem; margin: 1.2rem 0 0.5rem; }
    .status { margin: 0; font-size: 1.1rem; color: var(--muted); }
    .status[data-state="live"]::before { content: "● "; color: var(--full); }
    .status[data-state="lost"]::before { content: "● "; color: var(--out); }
    .figures { display: grid; grid-template-columns: repeat(4, minmax(0, 1fr)); gap: 0.8rem; margin: 1rem 0; }
    .figures div { background: var(--card); border: 1px solid var(--line); border-radius: 0.6rem; padding: 0.6rem 0.9rem; }
    .label { display: block; color: var(--muted); font-size: 0.95rem; }
    .value { display: block; font-size: 2.1rem; font-weight: 700; font-variant-numeric: tabular-nums; }
    #store[data-state="down"], #store[data-state="read-only"] { color: var(--out); }
    main { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 1fr); gap: 1.6rem; }
    .group h2 { border-bottom: 2px solid var(--line); padding-bottom: 0.2rem; }
    .items { display: grid; grid-template-columns: repeat(auto-fill, minmax(16rem, 1fr)); gap: 0.5rem 1.2rem; }
    .item { display: grid; grid-template-columns: minmax(0, 1fr) auto; align-items: baseline;
      column-gap: 0.6rem; padding: 0.3rem 0; }
    .name { font-size: 1.3rem; overflow-wrap: anywhere; }
    .level { font-size: 1.6rem; font-weight: 700; font-variant-numeric: tabular-nums; }
    .bar { grid-column: 1 / -1; height: 0.7rem; background: var(--track); border-radius: 0.35rem; overflow: hidden; }
    .bar span { display: block; height: 100%; background: var(--full); transition: width 0.4s; }
    .item[data-state="low"] .bar span { background: var(--low); }
    .item[data-state="out"] .level { color: var(--out); }
    .item.changed .level { animation: flash 1s; }
    @keyframes flash { from { color: var(--low); } }
    .recent { list-style: none; margin: 0; padding: 0; }
    .recent li { border-bottom: 1px solid var(--line); padding: 0.45rem 0; font-size: 1.1rem; }
    .recent .when { color: var(--muted); font-variant-numeric: tabular-nums; margin-right: 0.5rem; }
    .banner { background: var(--out); color: #fff; padding: 0.6rem 1rem; border-radius: 0.5rem; font-weight: 700; }
    @media (max-width: 700px) {
      :root { font-size: 15px; }
      body { padding: 0.8rem; }
      .figures { grid-template-columns: repeat(2, minmax(0, 1fr)); }
      main { grid-template-columns: minmax(0, 1fr); }
      .items { grid-template-columns: minmax(0, 1fr); }
    }

    """
}
