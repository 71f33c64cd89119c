// The playground's game-day mode: a file with a [gameday] section becomes
// an incident a room plays. The simulated clock runs at a chosen pace
// (paused, real time, 10x); the page shows the users' traffic, the alerts
// of the file's rules and the runbook, and the players act with the
// file's moves. Every move is recorded with its simulated time in whole
// milliseconds. The run is deterministic, and a move changes nothing
// before its time, so on each move the worker simulates the whole run
// again with the moves so far (the file's own [[action]] list, the
// reference answer, replaced by them) and the page goes on revealing it
// from the clock: what the room has seen stays as it was. At the end the
// score is computed (time to detect, time to mitigate, requests lost
// against doing nothing and against the hidden reference), the reference
// is revealed, and the file with the team's moves can be downloaded
// (ressim run reproduces its summary.json byte for byte) or shared as a
// link. It uses app.js's $, newWorker, setStatus, blobURL, encodeFragment,
// verdictText and downloadLinks, and listens for "ressim:info".
"use strict";

// paces are the clock's speeds: simulated seconds per wall second.
const paces = { paused: 0, real: 1, fast: 10 };

// gd is the game's state; the browser test reads it.
const gd = {
  info: null, // the validated file's Info (game_day inside)
  text: "", // the file as opened (with its reference answer)
  name: "",
  file: "",
  seed: "",
  worker: null,
  moves: [], // [{move, at_ms}], in the order played
  last: null, // Play's answer for the moves so far
  clockMS: 0, // simulated time shown, ms
  pace: "paused",
  busy: false, // a Play call is running
  ended: false,
  score: null,
  frame: 0,
  wallAt: 0,
};

document.addEventListener("ressim:info", (ev) => showGameDayPanel(ev.detail));

function showGameDayPanel(info) {
  const g = info && info.game_day;
  $("gameday").hidden = !g;
  if (!g) return;
  $("gameday-note").textContent = `This file is a game day: ${g.moves.length} moves, a runbook and ${g.rules ? "its alert rules" : "no alert rules"}. The room sees the traffic, the alerts and the runbook, not the file: its own [[action]] blocks are the reference answer, revealed at the end.`;
}

// startGameDay opens the room for the file in the editor, with moves
// already played (a shared link's) or none.
async function startGameDay(moves, atEnd) {
  if (!state.info || !state.info.game_day) return;
  gd.info = state.info;
  gd.text = $("toml").value;
  gd.file = state.file;
  gd.name = state.info.name;
  gd.seed = $("seed").value.trim();
  gd.moves = (moves || []).slice();
  gd.last = null;
  gd.score = null;
  gd.ended = false;
  gd.clockMS = 0;
  setPace("paused");
  if (!gd.worker) gd.worker = newWorker();
  document.body.classList.add("playing");
  $("gameday-room").hidden = false;
  $("gd-title").textContent = `Game day: ${gd.name}`;
  $("gd-runbook-body").innerHTML = gd.info.game_day.runbook_html; // escaped by the simulator (sim/gameday.RunbookHTML)
  renderMoveButtons();
  renderLog();
  $("gd-score").replaceChildren();
  $("gd-score").hidden = true;
  $("gameday-room").scrollIntoView({ block: "start" });
  await play();
  if (atEnd) await endGame();
  else setStatus("Game day ready: choose a pace to start the clock.");
}

function leaveGameDay() {
  setPace("paused");
  document.body.classList.remove("playing");
  $("gameday-room").hidden = true;
  setStatus("Left the game day.");
}

// play asks the worker for the run with the moves so far; the clock
// stands still meanwhile.
async function play() {
  gd.busy = true;
  const was = gd.pace;
  if (was !== "paused") setPace("paused", true);
  setMovesDisabled(true);
  $("gd-busy").textContent = gd.moves.length ? "Applying the move: simulating the run with it…" : "Simulating the incident…";
  const r = await gd.worker.call("play", { text: gd.text, moves: JSON.stringify(gd.moves), seed: gd.seed });
  gd.busy = false;
  $("gd-busy").textContent = "";
  if (r.error) {
    setStatus("The game day could not run: " + r.error);
    $("gd-busy").textContent = "Error: " + r.error;
    return;
  }
  gd.last = r;
  gd.last.summaryJSON = JSON.parse(r.summary);
  setMovesDisabled(gd.ended);
  draw();
  if (was !== "paused" && !gd.ended) setPace(was);
}

// setPace sets the clock's speed; quiet keeps the radio as it is (a
// pause while a move is applied).
function setPace(p, quiet) {
  gd.pace = p;
  if (!quiet) for (const r of document.querySelectorAll('input[name="gd-pace"]')) r.checked = r.value === p;
  cancelAnimationFrame(gd.frame);
  if (paces[p] > 0 && !gd.ended) {
    gd.wallAt = performance.now();
    gd.frame = requestAnimationFrame(tick);
  }
}

function tick(now) {
  const dt = Math.min(now - gd.wallAt, 250); // a background tab does not leap
  gd.wallAt = now;
  if (!gd.busy && gd.last) {
    gd.clockMS = Math.min(gd.clockMS + dt * paces[gd.pace], durationMS());
    draw();
    if (gd.clockMS >= durationMS()) {
      endGame();
      return;
    }
  }
  gd.frame = requestAnimationFrame(tick);
}

const durationMS = () => Math.round(1000 * gd.info.game_day.duration_s);

// renderMoveButtons draws a button per move, and a knob's positions (the
// moves sharing its label) as one slider over its values with a button
// that sets it: the move of the chosen position.
function renderMoveButtons() {
  const box = $("gd-moves");
  box.replaceChildren();
  const knobs = new Map();
  gd.info.game_day.moves.forEach((m, i) => {
    if (m.knob) {
      if (!knobs.has(m.knob)) knobs.set(m.knob, []);
      knobs.get(m.knob).push(i);
      return;
    }
    const b = document.createElement("button");
    b.type = "button";
    b.className = "move";
    b.dataset.move = String(i);
    b.textContent = m.label;
    if (m.help) b.title = m.help;
    b.onclick = () => makeMove(i);
    box.append(b);
  });
  let k = 0;
  for (const [label, idx] of knobs) {
    const moves = gd.info.game_day.moves;
    const div = document.createElement("div");
    div.className = "gd-knob";
    const id = "gd-knob-" + k++;
    const lab = document.createElement("label");
    lab.htmlFor = id;
    lab.textContent = label;
    if (moves[idx[0]].help) lab.title = moves[idx[0]].help;
    const input = document.createElement("input");
    input.type = "range";
    input.id = id;
    input.min = "0";
    input.max = String(idx.length - 1);
    input.step = "1";
    input.value = "0";
    const out = document.createElement("output");
    out.htmlFor = id;
    const b = document.createElement("button");
    b.type = "button";
    b.className = "move";
    const show = () => {
      const m = idx[Number(input.value)];
      out.textContent = moves[m].value;
      b.dataset.move = String(m);
      b.textContent = "Set " + moves[m].value;
    };
    input.oninput = show;
    b.onclick = () => makeMove(Number(b.dataset.move));
    show();
    div.append(lab, input, out, b);
    box.append(div);
  }
}

function setMovesDisabled(d) {
  for (const b of document.querySelectorAll("#gd-moves button, #gd-moves input")) b.disabled = d;
  $("gd-end").disabled = d;
}

// makeMove records move i at the clock's simulated time and simulates
// the run with it.
async function makeMove(i) {
  if (gd.busy || gd.ended || !gd.last) return;
  const at = Math.round(gd.clockMS);
  if (at <= 0 || at >= durationMS()) {
    setStatus("Start the clock first: a move happens at a time inside the incident.");
    return;
  }
  if (gd.moves.length >= 200) {
    setStatus("200 moves is the most a game day records.");
    return;
  }
  gd.moves.push({ move: i, at_ms: at });
  renderLog();
  setStatus(`${clockText(at)}: ${gd.info.game_day.moves[i].label}.`);
  await play();
}

function renderLog() {
  const ol = $("gd-log");
  ol.replaceChildren();
  for (const m of gd.moves) {
    const li = document.createElement("li");
    li.textContent = `${clockText(m.at_ms)}  ${gd.info.game_day.moves[m.move].label}`;
    ol.append(li);
  }
  $("gd-log-empty").hidden = gd.moves.length > 0;
}

function clockText(ms) {
  const s = Math.floor(ms / 1000);
  return `${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}.${String(Math.floor((ms % 1000) / 100))}`;
}

// draw shows everything up to the clock: the chart, the alerts, the clock.
function draw() {
  if (!gd.last) return;
  $("gd-clock").textContent = `${clockText(gd.clockMS)} / ${clockText(durationMS())}`;
  $("gd-clock").dataset.ms = String(Math.round(gd.clockMS));
  drawChart();
  drawAlerts();
}

// The chart: an SVG of two panels, the users' requests per second
// (offered, answered in full and in time) and the requests in flight,
// up to the clock; the moves as dashed lines. The y scales grow with
// what has been shown, never with what is still to come.
function drawChart() {
  const s = gd.last.series;
  const upto = gd.clockMS / 1000;
  let n = 0;
  while (n < s.t_s.length && s.t_s[n] <= upto) n++;
  const W = 960, H = 360, L = 64, R = 16, T = 24, gap = 36;
  const ph = (H - T - gap - 28) / 2;
  const dur = gd.info.game_day.duration_s;
  const x = (t) => L + ((W - L - R) * t) / dur;
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, role: "img" });
  svg.setAttribute("aria-label", `Users' traffic up to ${clockText(gd.clockMS)}`);
  const panels = [
    { title: "Users' requests per second", series: [["offered_rps", "offered", "#57606a"], ["goodput_rps", "answered in full and in time", "#1a7f37"]], y0: T },
    { title: "Requests in flight", series: [["in_flight", "in flight", "#b42318"]], y0: T + ph + gap },
  ];
  const spans = gd.ended ? faultSpans(dur) : [];
  for (const p of panels) {
    let top = 1;
    for (const [k] of p.series) for (let i = 0; i < n; i++) top = Math.max(top, s[k][i] || 0);
    top = niceTop(top * 1.1);
    const y = (v) => p.y0 + ph - (ph * Math.min(v, top)) / top;
    svg.append(svgEl("rect", { x: L, y: p.y0, width: W - L - R, height: ph, fill: "#fff", stroke: "#d0d7de" }));
    for (const sp of spans) {
      svg.append(svgEl("rect", { x: x(sp.from), y: p.y0, width: Math.max(1, x(sp.to) - x(sp.from)), height: ph, fill: "#fbe3d6", class: "fault" }));
      if (p === panels[1]) svg.append(svgText(x(sp.from) + 4, p.y0 + 14, sp.label, { fill: "#a33b00", "font-size": 12 }));
    }
    svg.append(svgText(L, p.y0 - 6, p.title, { "font-weight": "600" }));
    for (const f of [0, 0.5, 1]) {
      svg.append(svgEl("line", { x1: L, x2: W - R, y1: y(top * f), y2: y(top * f), stroke: "#eaeef2" }));
      svg.append(svgText(L - 6, y(top * f) + 4, fmtNum(top * f), { "text-anchor": "end" }));
    }
    let lx = L + 260;
    for (const [k, label, color] of p.series) {
      if (n > 1) {
        let d = "";
        for (let i = 0; i < n; i++) d += (i ? "L" : "M") + x(s.t_s[i]).toFixed(1) + " " + y(s[k][i] || 0).toFixed(1);
        svg.append(svgEl("path", { d, fill: "none", stroke: color, "stroke-width": 2 }));
      }
      if (p.series.length > 1) {
        svg.append(svgEl("line", { x1: lx, x2: lx + 18, y1: p.y0 - 10, y2: p.y0 - 10, stroke: color, "stroke-width": 3 }));
        svg.append(svgText(lx + 22, p.y0 - 6, label));
        lx += 40 + 7 * label.length;
      }
    }
    for (const m of gd.moves) {
      if (m.at_ms > gd.clockMS) continue;
      svg.append(svgEl("line", { x1: x(m.at_ms / 1000), x2: x(m.at_ms / 1000), y1: p.y0, y2: p.y0 + ph, stroke: "#0b5cad", "stroke-width": 2, "stroke-dasharray": "6 4" }));
    }
    svg.append(svgEl("line", { x1: x(upto), x2: x(upto), y1: p.y0, y2: p.y0 + ph, stroke: "#1b1f24" }));
  }
  const base = T + 2 * ph + gap;
  for (let t = 0; t <= dur + 1e-9; t += tickStep(dur)) svg.append(svgText(x(t), base + 18, clockText(t * 1000).slice(0, 5), { "text-anchor": "middle" }));
  $("gd-chart").replaceChildren(svg);
}

// faultSpans are the faults of the run (shown once the game is over):
// [{from, to, label}] in seconds, a fault open at the end running to it.
function faultSpans(dur) {
  const out = [];
  for (const e of gd.last.events || []) {
    if (e.kind === "fault_start") out.push({ from: e.t_s, to: dur, label: e.label });
    if (e.kind === "fault_end") {
      const open = out.find((s) => s.label === e.label && s.to === dur);
      if (open) open.to = e.t_s;
    }
  }
  return out;
}

function tickStep(dur) {
  for (const s of [10, 30, 60, 120, 300, 600]) if (dur / s <= 10) return s;
  return 1200;
}

function niceTop(v) {
  const e = Math.pow(10, Math.floor(Math.log10(v)));
  for (const m of [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]) if (m * e >= v) return m * e;
  return 10 * e;
}

const fmtNum = (v) => (v >= 1000 ? Number((v / 1000).toFixed(2)) + "k" : String(Math.round(v)));

function svgEl(tag, attrs) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}

function svgText(x, y, text, attrs) {
  const t = svgEl("text", { x, y, "font-size": 14, fill: "#1b1f24", ...(attrs || {}) });
  t.textContent = text;
  return t;
}

// alertState is an alert's state at the clock: firing, pending or
// inactive, from its evaluated activations.
function alertState(a, s) {
  for (const x of a.activations || []) {
    const end = x.resolved_s == null ? Infinity : x.resolved_s;
    if (s < x.pending_s || s >= end) continue;
    return x.firing_s != null && s >= x.firing_s ? "firing" : "pending";
  }
  return "inactive";
}

function drawAlerts() {
  const ul = $("gd-alerts");
  ul.replaceChildren();
  const s = gd.clockMS / 1000;
  const alerts = gd.last.alerts || [];
  $("gd-alerts-none").hidden = alerts.length > 0;
  for (const a of alerts) {
    const st = alertState(a, s);
    const li = document.createElement("li");
    li.className = "alert " + st;
    li.dataset.alert = a.name;
    li.dataset.state = st;
    li.textContent = `${a.name}${a.labels ? " " + a.labels : ""}: ${st === "firing" ? "FIRING" : st}`;
    if (a.summary && st === "firing") li.title = a.summary;
    ul.append(li);
  }
}

// firingTimes are the times (s) at which any alert started firing: the
// score's time to detect is the first at or after the fault's start.
function firingTimes() {
  const out = [];
  for (const a of gd.last.alerts || []) for (const x of a.activations || []) if (x.firing_s != null) out.push(x.firing_s);
  return out.sort((a, b) => a - b);
}

// endGame stops the clock, shows the rest of the run, scores it and
// reveals the reference answer.
async function endGame() {
  if (gd.ended || !gd.last) return;
  gd.ended = true;
  setPace("paused");
  gd.clockMS = durationMS();
  draw();
  setMovesDisabled(true);
  $("gd-busy").textContent = "Scoring: simulating doing nothing and the reference answer…";
  setStatus("Game day over: scoring…");
  const r = await gd.worker.call("score", { text: gd.text, moves: JSON.stringify(gd.moves), seed: gd.seed, firing: JSON.stringify(firingTimes()) });
  $("gd-busy").textContent = "";
  if (r.error) {
    setStatus("The score could not be computed: " + r.error);
    return;
  }
  gd.score = r;
  renderScore();
  setStatus(`Game day over: ${verdictText(r.verdict.team)}.`);
}

function renderScore() {
  const sc = gd.score;
  const el = $("gd-score");
  el.hidden = false;
  el.replaceChildren();
  const h = document.createElement("h3");
  h.textContent = "Score";
  const v = document.createElement("p");
  v.className = "verdict " + (sc.verdict.team || "none");
  v.dataset.verdict = sc.verdict.team;
  v.textContent = verdictText(sc.verdict.team, true);
  const secsOr = (x, none) => (x == null ? none : `${x.toFixed(1)} s`);
  const signed = (d) => (d > 0 ? "+" : d < 0 ? "−" : "±") + Math.abs(d).toLocaleString("en");
  const rows = [
    ["Time to detect (first alert firing after the fault began)", secsOr(sc.detect_s, "no alert fired")],
    ["Time to mitigate (fault's start to the first move after which the run recovers)", secsOr(sc.mitigate_s, "not mitigated")],
    ["Users' requests lost (not answered in full and in time)", sc.lost.team.toLocaleString("en")],
    ["… against doing nothing (" + verdictText(sc.verdict.nothing) + ")", signed(sc.lost_vs_nothing)],
    ["… against the reference answer (" + verdictText(sc.verdict.reference) + ")", signed(sc.lost_vs_reference)],
  ];
  const t = document.createElement("table");
  t.className = "score";
  const body = document.createElement("tbody");
  for (const [k, val] of rows) {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = k;
    const td = document.createElement("td");
    td.className = "num";
    td.textContent = val;
    tr.append(th, td);
    body.append(tr);
  }
  t.append(body);
  const ref = document.createElement("div");
  const rh = document.createElement("h4");
  rh.textContent = "The reference answer";
  const ol = document.createElement("ol");
  for (const m of sc.reference || []) {
    const li = document.createElement("li");
    li.textContent = `${clockText(Math.round(1000 * m.at_s))}  ${m.label}`;
    ol.append(li);
  }
  if (!(sc.reference || []).length) ol.append(Object.assign(document.createElement("li"), { textContent: "(the file has none)" }));
  ref.append(rh, ol);
  const name = gd.name || "gameday";
  const dl = downloadLinks([[`${name}-our-moves.toml`, gd.last.file, "application/toml"], ["summary.json", gd.last.summary, "application/json"]]);
  dl.id = "gd-downloads";
  const share = document.createElement("button");
  share.type = "button";
  share.id = "gd-share";
  share.textContent = "Copy share link of our moves";
  share.onclick = shareGame;
  const cmd = document.createElement("p");
  cmd.className = "note";
  cmd.textContent = `ressim run ${name}-our-moves.toml gives this summary.json byte for byte.`;
  el.append(h, v, t, ref, dl, cmd, share);
}

// gameShare is the game's share link payload: the file, the seed and the
// moves (app.js's encodeFragment writes it).
function gameShare() {
  return { file: gd.file, text: gd.text, seed: gd.seed, values: {}, mode: "gameday", moves: gd.moves };
}

async function shareGame() {
  const url = await encodeFragment(gameShare());
  history.replaceState(null, "", url);
  try { await navigator.clipboard.writeText(url); setStatus("Share link copied: it replays these moves and their score."); }
  catch { setStatus("Share link is in the address bar."); }
}

// restoreGameDay opens a shared game: its moves replayed to the end and
// scored. False for any other link.
function restoreGameDay(shared) {
  if (shared.mode !== "gameday" || !state.info || !state.info.game_day) return false;
  const moves = Array.isArray(shared.moves) ? shared.moves.filter((m) => Number.isInteger(m.move) && Number.isInteger(m.at_ms)).slice(0, 200) : [];
  startGameDay(moves, true);
  return true;
}

$("gameday-start").onclick = () => startGameDay([], false);
$("gd-leave").onclick = () => leaveGameDay();
$("gd-end").onclick = () => endGame();
for (const r of document.querySelectorAll('input[name="gd-pace"]')) r.onchange = () => r.checked && setPace(r.value);
