/// The live page's HTML. The hooks kept for tests and scripts (see the README): the text of
/// `[data-field="lat"]` and `[data-field="lon"]` (decimal degrees), and one element per
/// satellite in `#skyplot` with `data-prn`, `data-gnss` and `data-used`.
enum PageDocument {
    static let html = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>nmeastream</title>
    <link rel="stylesheet" href="/style.css">
    <script src="/app.js" defer></script>
    </head>
    <body>
    <header>
      <h1>nmeastream</h1>
      <label id="device-picker" hidden>Device <select id="device"></select></label>
      <span id="connection" class="connection" data-state="connecting">connecting</span>
    </header>
    <p id="device-note" class="note" hidden></p>
    <main>
      <section id="fix-panel" class="panel">
        <h2>Fix <span id="age" class="age"></span></h2>
        <dl class="fields">
          <dt>Time (UTC)</dt><dd data-field="time">–</dd>
          <dt>Latitude (°)</dt><dd data-field="lat">–</dd>
          <dt>Longitude (°)</dt><dd data-field="lon">–</dd>
          <dt>Mode</dt><dd data-field="mode">–</dd>
          <dt>Altitude MSL</dt><dd data-field="altMSL">–</dd>
          <dt>Altitude HAE</dt><dd data-field="altHAE">–</dd>
          <dt>Speed</dt><dd data-field="speed">–</dd>
          <dt>Course</dt><dd data-field="track">–</dd>
          <dt>Climb</dt><dd data-field="climb">–</dd>
          <dt>Satellites</dt><dd data-field="satellites">–</dd>
          <dt>DOP H / V / P</dt><dd data-field="dop">–</dd>
          <dt>Error H / V (1σ)</dt><dd data-field="errors">–</dd>
        </dl>
      </section>
      <section class="panel">
        <h2>Sky</h2>
        <svg id="skyplot" viewBox="-120 -120 240 240" role="img" aria-label="Sky plot: satellites by azimuth and elevation"></svg>
        <p id="sky-legend" class="legend"></p>
      </section>
      <section class="panel">
        <h2>Signals <small>dB-Hz</small></h2>
        <svg id="signals" viewBox="0 0 320 140" role="img" aria-label="Signal strength per satellite"></svg>
      </section>
      <section class="panel">
        <h2>Track <small id="track-scale"></small></h2>
        <svg id="track" viewBox="-120 -120 240 240" role="img" aria-label="Track of the last minutes, in metres around the latest fix"></svg>
      </section>
    </main>
    <footer><span id="server">nmeastream</span> · live gpsd JSON from <code>/feed</code></footer>
    </body>
    </html>
    """#
}
