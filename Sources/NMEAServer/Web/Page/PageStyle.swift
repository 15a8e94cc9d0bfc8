/// The live page's style sheet: one column on a phone, a grid of panels on a wider screen.
enum PageStyle {
    static let css = #"""
    :root { color-scheme: light dark; --fg: #1d2430; --muted: #6b7380; --bg: #f4f5f7; --panel: #fff; --line: #d5d9e0; }
    @media (prefers-color-scheme: dark) {
      :root { --fg: #e6e9ee; --muted: #9aa3af; --bg: #12161c; --panel: #1b2129; --line: #343c48; }
    }
    * { box-sizing: border-box; }
    body { margin: 0; font: 15px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
    header { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1rem; padding: .6rem 1rem; border-bottom: 1px solid var(--line); background: var(--panel); }
    header h1 { font-size: 1.1rem; margin: 0; flex: 1 1 auto; }
    select { font: inherit; max-width: 60vw; }
    .connection { font-size: .85rem; padding: .1rem .5rem; border-radius: 1rem; background: #e0e3e8; color: #333; }
    .connection[data-state="live"] { background: #d3f2dc; color: #13622c; }
    .connection[data-state="reconnecting"] { background: #fbe3c8; color: #7a4100; }
    .note { margin: .5rem 1rem 0; color: #a33; }
    main { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 290px), 1fr)); gap: 1rem; padding: 1rem; }
    .panel { background: var(--panel); border: 1px solid var(--line); border-radius: .5rem; padding: .75rem 1rem; min-width: 0; }
    .panel h2 { font-size: 1rem; margin: 0 0 .5rem; display: flex; gap: .5rem; align-items: baseline; }
    .panel h2 small { color: var(--muted); font-weight: normal; }
    .age { margin-left: auto; font-weight: normal; font-size: .85rem; color: var(--muted); }
    .fields { display: grid; grid-template-columns: auto 1fr; gap: .2rem .75rem; margin: 0; font-size: .93rem; }
    .fields dt { color: var(--muted); white-space: nowrap; }
    .fields dd { margin: 0; font-variant-numeric: tabular-nums; text-align: right; white-space: nowrap; }
    /* Stale: the device said nothing for a while; what is shown is its last word. */
    main.stale .panel { border-style: dashed; }
    main.stale .fields dd, main.stale .age { color: #999; }
    main.stale svg { filter: grayscale(1); opacity: .6; }
    svg { width: 100%; height: auto; display: block; }
    #skyplot, #track { max-height: 60vh; max-width: 420px; margin: 0 auto; }
    .grid { fill: none; stroke: var(--line); stroke-width: .8; }
    .axis-label { fill: var(--muted); font-size: 9px; text-anchor: middle; dominant-baseline: middle; }
    .sat-label { font-size: 7px; text-anchor: middle; dominant-baseline: middle; fill: var(--fg); pointer-events: none; }
    .sat-label.used { fill: #fff; }
    .legend { display: flex; flex-wrap: wrap; gap: .3rem .8rem; margin: .5rem 0 0; font-size: .8rem; color: var(--muted); }
    .legend i { display: inline-block; width: .7rem; height: .7rem; border-radius: 50%; margin-right: .25rem; vertical-align: -1px; }
    .bar-label { font-size: 7px; fill: var(--muted); text-anchor: middle; }
    .track-line { fill: none; stroke: #2f7de1; stroke-width: 1.5; stroke-linejoin: round; }
    .track-here { fill: #d2372d; }
    footer { padding: 0 1rem 1rem; color: var(--muted); font-size: .8rem; }
    """#
}
