"use strict";
(() => {
  // gpsd's gnssid: name and colour.
  const GNSS = {
    0: ["GPS", "#2f7de1"], 1: ["SBAS", "#7f8c8d"], 2: ["Galileo", "#d99a00"], 3: ["BeiDou", "#d2372d"],
    4: ["IMES", "#8e6c4a"], 5: ["QZSS", "#9b59b6"], 6: ["GLONASS", "#27a35a"], 7: ["NavIC", "#e67e22"],
  };
  const UNKNOWN = ["unknown", "#95a5a6"];
  const STALE_SECONDS = 5;
  const TRACK_SECONDS = 10 * 60;
  const SVG = "http://www.w3.org/2000/svg";
  const devices = new Map();
  let selected = null;
  let retryDelay = 1000;

  const $ = (id) => document.getElementById(id);
  const field = (name) => document.querySelector(`[data-field="${name}"]`);
  const setText = (name, text) => { field(name).textContent = text; };
  const number = (value) => typeof value === "number" && Number.isFinite(value);
  const fixed = (value, digits, unit) => number(value) ? `${value.toFixed(digits)}${unit || ""}` : "–";

  function svg(name, attributes, parent) {
    const element = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attributes || {})) element.setAttribute(key, String(value));
    if (parent) parent.appendChild(element);
    return element;
  }
  function svgText(parent, x, y, text, className) {
    const element = svg("text", { x, y, class: className }, parent);
    element.textContent = text;
    return element;
  }

  function device(path) {
    let entry = devices.get(path);
    if (!entry) {
      entry = { path, tpv: null, sky: null, received: null, track: [], present: true };
      devices.set(path, entry);
      if (selected === null) selected = path;
      refreshPicker();
    }
    return entry;
  }

  function refreshPicker() {
    const picker = $("device");
    picker.replaceChildren();
    for (const entry of devices.values()) {
      const option = document.createElement("option");
      option.value = entry.path;
      option.textContent = entry.present ? entry.path : `${entry.path} (unplugged)`;
      option.selected = entry.path === selected;
      picker.appendChild(option);
    }
    $("device-picker").hidden = devices.size < 2;
    const current = devices.get(selected);
    const note = $("device-note");
    note.hidden = !current || current.present;
    note.textContent = current && !current.present ? `${current.path} is unplugged or failed; showing what it said last.` : "";
  }

  function handle(report) {
    switch (report.class) {
      case "VERSION":
        $("server").textContent = `nmeastream serve (release ${report.release})`;
        break;
      case "DEVICES":
        for (const entry of report.devices || []) device(entry.path).present = true;
        refreshPicker();
        break;
      case "DEVICE":
        if (report.path) {
          device(report.path).present = report.activated !== 0;
          refreshPicker();
        }
        break;
      case "TPV": {
        if (!report.device) break;
        const entry = device(report.device);
        entry.tpv = report;
        entry.present = true;
        entry.received = Date.now();
        if (number(report.lat) && number(report.lon)) {
          entry.track.push({ at: entry.received, lat: report.lat, lon: report.lon });
          const cutoff = entry.received - TRACK_SECONDS * 1000;
          while (entry.track.length && entry.track[0].at < cutoff) entry.track.shift();
        }
        if (report.device === selected) { drawFix(entry); drawTrack(entry); }
        break;
      }
      case "SKY": {
        if (!report.device) break;
        const entry = device(report.device);
        // A SKY with no nSat has an epoch's dilutions alone (no GSV that epoch): the
        // satellites already drawn stay, as libgps keeps them.
        entry.sky = "nSat" in report || !entry.sky ? report
          : { ...report, nSat: entry.sky.nSat, satellites: entry.sky.satellites };
        if (report.device === selected) { drawSky(entry); drawSignals(entry); drawFix(entry); }
        break;
      }
    }
  }

  const MODES = { 0: "unknown", 1: "no fix", 2: "2D", 3: "3D" };
  // gpsd's status; a TPV leaves out 1, a plain fix.
  const STATUSES = { 0: "unknown", 1: "autonomous", 2: "DGPS", 3: "RTK fixed", 4: "RTK float", 5: "dead reckoning",
                     6: "GNSS + dead reckoning", 7: "time only", 8: "simulated" };

  function drawFix(entry) {
    const tpv = entry.tpv || {};
    const sky = entry.sky || {};
    // Whole seconds as "2024-06-05 12:30:04", fractions kept when there are any.
    setText("time", tpv.time ? tpv.time.replace("T", " ").replace("Z", "").replace(/\.0+$/, "") : "–");
    setText("lat", number(tpv.lat) ? String(tpv.lat) : "–");
    setText("lon", number(tpv.lon) ? String(tpv.lon) : "–");
    setText("mode", MODES[tpv.mode] || "–");
    // With the age of the corrections the receiver used (DGPS, RTK), when it gives it.
    const status = tpv.mode >= 2 ? STATUSES[number(tpv.status) ? tpv.status : 1] || "–" : "–";
    setText("status", number(tpv.dgpsAge) && status !== "–" ? `${status} · corrections ${tpv.dgpsAge.toFixed(1)} s old` : status);
    // The checks the fix failed (nmeastream's `integrity`): marked, never hidden.
    const flags = Array.isArray(tpv.integrity) ? tpv.integrity : [];
    setText("integrity", flags.length ? `⚠ ${flags.join(", ")}` : tpv.mode >= 2 ? "no flags" : "–");
    field("integrity").classList.toggle("flagged", flags.length > 0);
    $("fix-panel").classList.toggle("flagged", flags.length > 0);
    // The receiver a merged device (best:) carries.
    setText("source", typeof tpv.source === "string" ? tpv.source : "–");
    setText("altMSL", fixed(tpv.altMSL, 1, " m"));
    setText("altHAE", fixed(tpv.altHAE, 1, " m"));
    setText("speed", number(tpv.speed) ? `${tpv.speed.toFixed(2)} m/s · ${(tpv.speed * 3.6).toFixed(1)} km/h` : "–");
    setText("track", fixed(tpv.track, 1, "°"));
    setText("climb", fixed(tpv.climb, 2, " m/s"));
    setText("satellites", !number(sky.uSat) ? "–"
      : number(sky.nSat) ? `${sky.uSat} used of ${sky.nSat} seen` : `${sky.uSat} used`);
    setText("dop", [sky.hdop, sky.vdop, sky.pdop].some(number)
      ? [sky.hdop, sky.vdop, sky.pdop].map((value) => fixed(value, 1)).join(" / ") : "–");
    // The receiver's own estimates where it gives them (UBX, GST), else gpsd's model of them.
    setText("errors", [tpv.eph, tpv.epv, tpv.eps].some(number)
      ? `${fixed(tpv.eph, 2, " m")} / ${fixed(tpv.epv, 2, " m")} / ${fixed(tpv.eps, 2, " m/s")}` : "–");
    drawAge();
  }

  function drawAge() {
    const entry = devices.get(selected);
    const view = document.querySelector("main");
    if (!entry || entry.received === null) {
      $("age").textContent = "waiting for a fix";
      view.classList.add("stale");
      return;
    }
    const seconds = Math.max(0, (Date.now() - entry.received) / 1000);
    $("age").textContent = seconds < 1.5 ? "now" : seconds < 120 ? `${Math.round(seconds)} s ago` : `${Math.round(seconds / 60)} min ago`;
    view.classList.toggle("stale", seconds > STALE_SECONDS);
  }

  function drawSky(entry) {
    const plot = $("skyplot");
    plot.replaceChildren();
    for (const elevation of [0, 30, 60]) svg("circle", { class: "grid", r: 100 * (90 - elevation) / 90 }, plot);
    svg("line", { class: "grid", x1: -100, y1: 0, x2: 100, y2: 0 }, plot);
    svg("line", { class: "grid", x1: 0, y1: -100, x2: 0, y2: 100 }, plot);
    for (const [label, x, y] of [["N", 0, -110], ["E", 110, 0], ["S", 0, 110], ["W", -110, 0]]) svgText(plot, x, y, label, "axis-label");
    for (const elevation of [30, 60]) svgText(plot, 4, -100 * (90 - elevation) / 90 + 5, `${elevation}°`, "axis-label");
    const seen = new Set();
    const unplaced = [];
    for (const satellite of (entry.sky && entry.sky.satellites) || []) {
      const [name, colour] = GNSS[satellite.gnssid] || UNKNOWN;
      const used = satellite.used === true;
      const mark = svg("g", { "data-prn": satellite.PRN, "data-gnss": name, "data-used": used ? "true" : "false" }, plot);
      const title = svg("title", {}, mark);
      title.textContent = `${name} ${satellite.svid ?? satellite.PRN}: elevation ${fixed(satellite.el, 0, "°")}, azimuth ${fixed(satellite.az, 0, "°")}, ${fixed(satellite.ss, 0, " dB-Hz")}${used ? ", used" : ""}`;
      seen.add(name);
      if (!number(satellite.el) || !number(satellite.az) || satellite.el < 0) {
        mark.setAttribute("data-placed", "false");
        unplaced.push(`${name} ${satellite.PRN}`);
        continue;
      }
      const radius = 100 * (90 - satellite.el) / 90;
      const angle = satellite.az * Math.PI / 180;
      const x = radius * Math.sin(angle), y = -radius * Math.cos(angle);
      svg("circle", { cx: x.toFixed(1), cy: y.toFixed(1), r: 8, fill: used ? colour : "none", stroke: colour, "stroke-width": 1.6 }, mark);
      svgText(mark, x.toFixed(1), y.toFixed(1), String(satellite.PRN), used ? "sat-label used" : "sat-label");
    }
    const legend = $("sky-legend");
    legend.replaceChildren();
    for (const [name, colour] of Object.values(GNSS).concat([UNKNOWN])) {
      if (!seen.has(name)) continue;
      const item = document.createElement("span");
      const dot = document.createElement("i");
      dot.style.background = colour;
      item.append(dot, name);
      legend.appendChild(item);
    }
    const hint = document.createElement("span");
    hint.textContent = "filled: used in the fix";
    legend.appendChild(hint);
    if (unplaced.length) {
      const item = document.createElement("span");
      item.textContent = `no position: ${unplaced.join(", ")}`;
      legend.appendChild(item);
    }
  }

  function drawSignals(entry) {
    const chart = $("signals");
    chart.replaceChildren();
    const satellites = ((entry.sky && entry.sky.satellites) || []).filter((satellite) => number(satellite.ss));
    const width = Math.max(320, satellites.length * 16 + 20);
    chart.setAttribute("viewBox", `0 0 ${width} 140`);
    for (const level of [20, 40]) {
      const y = 120 - level * 2;
      svg("line", { class: "grid", x1: 18, y1: y, x2: width, y2: y }, chart);
      svgText(chart, 9, y, String(level), "axis-label");
    }
    satellites.forEach((satellite, index) => {
      const [, colour] = GNSS[satellite.gnssid] || UNKNOWN;
      const used = satellite.used === true;
      const height = Math.min(60, Math.max(0, satellite.ss)) * 2;
      const x = 22 + index * 16;
      svg("rect", { x, y: 120 - height, width: 12, height, fill: used ? colour : "none", stroke: colour, "stroke-width": 1.4 }, chart);
      svgText(chart, x + 6, 132, String(satellite.PRN), "bar-label");
    });
  }

  function drawTrack(entry) {
    const plot = $("track");
    plot.replaceChildren();
    const points = entry.track;
    if (!points.length) { $("track-scale").textContent = ""; return; }
    const here = points[points.length - 1];
    const metresPerDegreeLat = 111132.954 - 559.822 * Math.cos(2 * here.lat * Math.PI / 180);
    const metresPerDegreeLon = 111412.84 * Math.cos(here.lat * Math.PI / 180);
    const local = points.map((point) => [(point.lon - here.lon) * metresPerDegreeLon, (point.lat - here.lat) * metresPerDegreeLat]);
    const farthest = Math.max(1, ...local.map(([x, y]) => Math.hypot(x, y)));
    // A round radius for the outer ring: 1, 2 or 5 times a power of ten metres.
    const power = Math.pow(10, Math.floor(Math.log10(farthest)));
    const ring = [1, 2, 5, 10].map((step) => step * power).find((value) => value >= farthest);
    const scale = 100 / ring;
    svg("circle", { class: "grid", r: 100 }, plot);
    svg("circle", { class: "grid", r: 50 }, plot);
    svgText(plot, 0, -110, "N", "axis-label");
    const label = ring >= 1000 ? `${ring / 1000} km` : `${ring} m`;
    svgText(plot, 0, 108, label, "axis-label");
    const span = Math.round((here.at - points[0].at) / 1000);
    $("track-scale").textContent = `last ${span < 120 ? `${span} s` : `${Math.round(span / 60)} min`}, ring ${label}`;
    svg("polyline", { class: "track-line", points: local.map(([x, y]) => `${(x * scale).toFixed(1)},${(-y * scale).toFixed(1)}`).join(" ") }, plot);
    svg("circle", { class: "track-here", r: 3.5 }, plot);
  }

  function drawSelected() {
    const entry = devices.get(selected);
    if (!entry) return;
    drawFix(entry); drawSky(entry); drawSignals(entry); drawTrack(entry);
  }

  function setConnection(state) {
    const badge = $("connection");
    badge.dataset.state = state;
    badge.textContent = state;
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}/feed`);
    setConnection("connecting");
    socket.onopen = () => { retryDelay = 1000; setConnection("live"); };
    socket.onmessage = (event) => {
      for (const line of String(event.data).split("\n")) {
        const text = line.trim();
        if (!text) continue;
        let report;
        try { report = JSON.parse(text); } catch { continue; }
        handle(report);
      }
    };
    socket.onclose = () => {
      setConnection("reconnecting");
      setTimeout(connect, retryDelay);
      retryDelay = Math.min(retryDelay * 2, 10000);
    };
  }

  $("device").addEventListener("change", (event) => { selected = event.target.value; refreshPicker(); drawSelected(); });
  setInterval(drawAge, 1000);
  drawAge();
  connect();
})();
