// The playground page: a catalogue of the bundled experiments, an editor
// with the simulator's own validation, knobs, runs in a Web Worker with
// progress and Stop, a pinned result beside the current one, and links
// that carry the whole state in the URL fragment. No build step; nothing
// leaves the page.
"use strict";

// Fetch and compile main.wasm first thing, while the page is still being
// set up (marks: docs/playground.md#where-the-time-goes).
const compiled = WebAssembly.compileStreaming(fetch("main.wasm")).then((m) => {
  performance.mark("wasm-compiled");
  return m;
});
// The catalogue is written at build time (catalogue.json), so the page
// can show it, and the editor, before the simulator has started.
const catalogue = fetch("catalogue.json").then((r) => (r.ok ? r.json() : null)).catch(() => null);
const $ = (id) => document.getElementById(id);
// mode is what the page last ran, and what a share link reruns: "run",
// or compare.js's "compare" or "sweep".
const state = { bundled: [], file: "", knobs: [], values: {}, info: null, last: null, pinned: null, mode: "run" };
let checker = null; // started only to validate while the runner is busy
let runner = null;
let nextID = 1;

// A worker running main.wasm; call(op, args, onProgress, onFigure)
// returns a promise of the parsed answer. The worker's stage marks go on
// the page's performance timeline.
function newWorker() {
  const w = new Worker("worker.js");
  const waiting = new Map();
  w.onmessage = (ev) => {
    const m = ev.data;
    if (m.op === "mark") return performance.mark(m.name, { startTime: m.t - performance.timeOrigin });
    const p = waiting.get(m.id);
    if (!p) return;
    if (m.progress !== undefined) return p.progress && p.progress(m.progress);
    if (m.figure !== undefined) return p.figure && p.figure(m.figure);
    if (m.live !== undefined) return p.figure && p.figure.live && p.figure.live(m.live);
    waiting.delete(m.id);
    p.resolve(JSON.parse(m.result));
  };
  compiled.then((module) => w.postMessage({ op: "init", module }));
  return {
    call(op, args, progress, figure) {
      const id = nextID++;
      return new Promise((resolve) => {
        waiting.set(id, { resolve, progress, figure });
        w.postMessage({ id, op, args });
      });
    },
    stop() { w.terminate(); },
  };
}

async function start() {
  runner = newWorker();
  state.bundled = (await catalogue) || (await runner.call("list", {}));
  performance.mark("listed");
  setStatus(`${state.bundled.length} bundled experiments. Starting the simulator…`);
  renderCatalogue();
  const shared = await readFragment();
  if (shared) {
    openText(shared.file, shared.text, shared.seed, shared.values);
    await validateNow();
    if (!restoreGameDay(shared) && !restoreBatch(shared)) runNow(); // gameday.js: a game's link; compare.js: a comparison's or sweep's
  } else {
    const first = state.bundled.find((b) => b.file === "metastable-retry-storm.toml") || state.bundled[0];
    openText(first.file, first.text, "", {});
  }
}

function setStatus(s) { $("status").textContent = s; }

function renderCatalogue() {
  const ul = $("experiments");
  ul.replaceChildren();
  for (const b of state.bundled) {
    const li = document.createElement("li");
    const btn = document.createElement("button");
    btn.type = "button";
    btn.dataset.file = b.file;
    btn.innerHTML = `<span class="name"></span><span class="story"></span>`;
    btn.querySelector(".name").textContent = b.name;
    btn.querySelector(".story").textContent = b.description || "";
    btn.setAttribute("aria-label", `Open ${b.name}: ${b.description || ""}`);
    btn.onclick = () => openText(b.file, b.text, "", {});
    li.append(btn);
    ul.append(li);
  }
}

function openText(file, text, seed, values) {
  state.file = file;
  state.values = values || {};
  state.mode = "run";
  $("toml").value = text;
  $("seed").value = seed || "";
  for (const b of document.querySelectorAll("#experiments button")) {
    b.setAttribute("aria-current", b.dataset.file === file ? "true" : "false");
  }
  $("file-title").textContent = `Experiment file: ${file || "(edited)"}`;
  drawGutter([]);
  scheduleValidate(0);
}

// Validation as you type, debounced.
let validateTimer = 0;
function scheduleValidate(ms) {
  clearTimeout(validateTimer);
  validateTimer = setTimeout(validateNow, ms);
}

async function validateNow() {
  const text = $("toml").value;
  const v = await validator().call("validate", { text });
  if (!performance.getEntriesByName("validated").length) {
    setStatus(`Simulator ready (${Math.round(performance.now())} ms). ${state.bundled.length} bundled experiments.`);
  }
  performance.mark("validated");
  if ($("toml").value !== text) return; // stale: typing went on
  state.info = v.experiment || null;
  showProblems(v.errors || []);
  if (state.info) {
    $("description").textContent = state.info.description || "";
    if (!$("seed").value) $("seed").placeholder = String(state.info.seed);
    // Drawn again only when they change: a second validation of the same
    // file (a slow one finishing after a newer one) must not take the
    // keyboard focus from a knob.
    const key = JSON.stringify([state.info.knobs || [], state.values]);
    if (key !== state.knobsKey) {
      state.knobsKey = key;
      renderKnobs(state.info.knobs || []);
    }
  }
  $("run").disabled = !state.info;
  document.dispatchEvent(new CustomEvent("ressim:info", { detail: state.info })); // compare.js
}

// validator is the idle runner, or (while it runs) a second worker,
// started on first need: one Go instance starts with the page, not two.
function validator() {
  if (!running) return runner;
  if (!checker) checker = newWorker();
  return checker;
}

function showProblems(errors) {
  const ul = $("problems");
  ul.replaceChildren();
  drawGutter(errors);
  if (errors.length === 0) {
    const li = document.createElement("li");
    li.className = "ok";
    li.textContent = "The file is valid.";
    ul.append(li);
    return;
  }
  for (const e of errors) {
    const li = document.createElement("li");
    li.dataset.line = e.line;
    const btn = document.createElement("button");
    btn.type = "button";
    btn.textContent = `line ${e.line}, column ${e.col}${e.key ? ", " + e.key : ""}: ${e.msg}`;
    btn.onclick = () => goTo(e.line, e.col);
    li.append(btn);
    ul.append(li);
  }
}

function drawGutter(errors) {
  const n = $("toml").value.split("\n").length;
  const bad = new Map(errors.map((e) => [e.line, e.msg]));
  const g = $("gutter");
  g.replaceChildren();
  for (let i = 1; i <= n; i++) {
    const s = document.createElement("span");
    s.textContent = String(i);
    if (bad.has(i)) { s.className = "bad"; s.title = bad.get(i); }
    g.append(s, "\n");
  }
  g.scrollTop = $("toml").scrollTop;
  drawMarks(errors);
}

// drawMarks shades each problem's line behind the text and underlines it
// from the problem's column.
function drawMarks(errors) {
  const m = $("marks");
  m.replaceChildren();
  if (errors.length === 0) return;
  const bad = new Map(errors.map((e) => [e.line, e]));
  $("toml").value.split("\n").forEach((text, i) => {
    const e = bad.get(i + 1);
    if (!e) {
      m.append(text + "\n");
      return;
    }
    const line = document.createElement("span");
    line.className = "bad-line";
    const at = Math.max(0, Math.min(e.col - 1, text.length));
    const under = document.createElement("span");
    under.className = "bad-at";
    under.textContent = text.slice(at) || " ";
    line.append(text.slice(0, at), under);
    m.append(line, "\n");
  });
  syncScroll();
}

function syncScroll() {
  const ta = $("toml");
  $("gutter").scrollTop = ta.scrollTop;
  $("marks").scrollTop = ta.scrollTop;
  $("marks").scrollLeft = ta.scrollLeft;
}

function goTo(line, col) {
  const ta = $("toml");
  const lines = ta.value.split("\n");
  let at = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) at += lines[i].length + 1;
  at += Math.max(0, col - 1);
  ta.focus();
  ta.setSelectionRange(at, at);
  // Show the line a third of the way down (setSelectionRange alone does
  // not always scroll).
  const lh = parseFloat(getComputedStyle(ta).lineHeight) || 19;
  ta.scrollTop = Math.max(0, (line - 1) * lh - ta.clientHeight / 3);
  syncScroll();
}

// Knobs: controls for the [[knob]] blocks of the file.
function renderKnobs(knobs) {
  state.knobs = knobs;
  const box = $("knob-list");
  box.replaceChildren();
  $("knobs").hidden = knobs.length === 0;
  for (const k of knobs) {
    const id = "knob-" + k.name;
    const div = document.createElement("div");
    div.className = "knob";
    const label = document.createElement("label");
    label.htmlFor = id;
    label.textContent = k.label;
    let input;
    const v = state.values[k.name];
    if (k.type === "toggle") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = v === true;
      input.onchange = () => setKnob(k.name, input.checked ? true : undefined);
      div.append(input, label);
    } else if (k.type === "choice") {
      input = document.createElement("select");
      k.values.forEach((x, i) => input.append(new Option(knobText(x), String(i))));
      const def = k.values.findIndex((x) => JSON.stringify(x) === JSON.stringify(k.default));
      input.value = String(v !== undefined ? v : Math.max(def, 0));
      input.onchange = () => setKnob(k.name, Number(input.value) === def ? undefined : Number(input.value));
      div.append(label, input);
    } else {
      input = document.createElement("input");
      input.type = "range";
      input.min = k.min;
      input.max = k.max;
      input.step = k.step || (k.type === "integer" ? 1 : (k.max - k.min) / 100);
      input.value = v !== undefined ? v : (typeof k.default === "number" ? k.default : k.min);
      const out = document.createElement("output");
      out.htmlFor = id;
      out.textContent = input.value;
      input.oninput = () => { out.textContent = input.value; setKnob(k.name, Number(input.value) === k.default ? undefined : Number(input.value)); };
      div.append(label, input, out);
    }
    input.id = id;
    input.dataset.knob = k.name;
    box.append(div);
  }
}

// knobText writes a choice's TOML value for the list: inline tables as
// "key = value, ...", arrays in brackets.
function knobText(x) {
  if (Array.isArray(x)) return "[" + x.map(knobText).join(", ") + "]";
  if (x && typeof x === "object") return Object.entries(x).map(([k, v]) => `${k} = ${knobText(v)}`).join(", ");
  return String(x);
}

function setKnob(name, value) {
  if (value === undefined) delete state.values[name];
  else state.values[name] = value;
}

// settings turns the knob positions into variant overrides {path: value}.
function settings() {
  const set = {};
  for (const k of state.knobs) {
    const v = state.values[k.name];
    if (v === undefined) continue;
    if (k.type === "toggle") set[k.path] = k.on;
    else if (k.type === "choice") set[k.path] = k.values[v];
    else set[k.path] = v;
  }
  return set;
}

// Runs: in the runner worker; Stop terminates it and starts a fresh one.
let running = false;
async function runNow() {
  if (running) return;
  running = true;
  state.mode = "run";
  const fromRun = document.activeElement === $("run");
  $("run").disabled = true;
  $("stop").disabled = false;
  if (fromRun) $("stop").focus({ preventScroll: true }); // a disabled button drops the focus
  $("pin").disabled = true;
  $("progress").value = 0;
  $("progress-text").textContent = "0 %";
  clearResults("run", "Running…");
  const t0 = performance.now();
  performance.mark("run-click");
  const req = { text: $("toml").value, seed: $("seed").value.trim(), set: settings() };
  setStatus("Running…");
  const early = earlyFigures();
  const r = await runner.call("run", req, (pct) => {
    $("progress").value = pct;
    $("progress-text").textContent = pct + " %";
  }, early);
  running = false;
  keepFocus(() => { $("stop").disabled = true; $("run").disabled = !state.info; });
  if (r === null) return; // stopped
  const ms = Math.round(performance.now() - t0);
  if (r.error) {
    setStatus("The run failed.");
    showError(r);
    reveal($("results"));
    return;
  }
  state.last = { ...r, summaryJSON: JSON.parse(r.summary), req, file: state.file, values: { ...state.values }, ms };
  setStatus(`Done in ${ms} ms (seed ${r.seed}).`);
  $("pin").disabled = false;
  render();
  reveal($("results"));
  performance.mark("result-rendered");
}

// earlyFigures returns a run's figure callback: it shows each figure in
// the current result as soon as the worker has drawn it (the first one
// long before the run's answer), until render replaces the result. Its
// live method shows the overview drawn while a large run is still being
// simulated (each one replacing the last), until the first figure comes.
function earlyFigures() {
  let div = null;
  const show = (f) => {
    if (!div) {
      div = document.createElement("div");
      div.className = "figures";
      $("current").replaceChildren(div);
      reveal($("results"));
    }
    const img = document.createElement("img");
    img.src = blobURL(f.svg, "image/svg+xml");
    img.alt = `Figure ${f.file} (drawn; the run is finishing)`;
    img.dataset.file = f.file;
    div.append(img);
    if (div.children.length === 1) {
      performance.mark("first-figure-inserted");
      img.decode().then(() => performance.mark("first-figure-decoded"), () => {});
    }
  };
  show.live = (f) => {
    if (div) return; // the final figures have begun
    const live = document.createElement("figure");
    live.className = "live";
    const img = document.createElement("img");
    img.src = blobURL(f.svg, "image/svg+xml");
    img.alt = `Figure ${f.file} while the run is simulated (live; the final figures replace it)`;
    img.dataset.file = f.file;
    const cap = document.createElement("figcaption");
    cap.textContent = "Live: the overview so far, while the rest is simulated.";
    live.append(img, cap);
    const old = $("current").querySelector(".live img");
    if (old) URL.revokeObjectURL(old.src);
    $("current").replaceChildren(live);
    reveal($("results"));
    if (!old) {
      performance.mark("live-figure-inserted");
      img.decode().then(() => performance.mark("live-figure-decoded"), () => {});
    }
  };
  return show;
}

// keepFocus runs f, which disables Stop; if Stop had the keyboard focus,
// Run gets it (a disabled button would drop it to the page's start).
function keepFocus(f) {
  const had = document.activeElement === $("stop");
  f();
  if (had) $("run").focus({ preventScroll: true }); // the result has been scrolled into view
}

function stopNow() {
  if (!running) return;
  runner.stop();
  runner = newWorker();
  running = false;
  keepFocus(() => { $("stop").disabled = true; $("run").disabled = !state.info; });
  $("progress-text").textContent = "stopped";
  clearResults("run", "Stopped: the run was abandoned. Run it again to see a result.");
  setStatus("Stopped: the run was abandoned, nothing was kept.");
  // Settle the abandoned promise's caller.
}

function showError(r) {
  const el = $("current");
  el.replaceChildren();
  const p = document.createElement("p");
  p.className = "error";
  p.textContent = r.error;
  el.append(p);
  if (r.errors) showProblems(r.errors);
}

// Rendering results.

// verdictWords says every verdict the simulator gives (sim/topology's
// Verdict constants, and sim/lint's) in words: [short, for a table; long,
// for a result's headline]. The key is never shown: TestVerdictWords
// fails if the Go code gives a verdict missing here.
const verdictWords = {
  locked_in: ["locked in", "LOCKED IN: the system stayed down after the trigger was gone"],
  relapsed: ["relapsed", "RELAPSED: it came back, then fell again (locked in)"],
  recovered: ["recovered", "Recovered: goodput came back after the fault"],
  unaffected: ["unaffected", "Unaffected: the fault did not hurt the users"],
  no_baseline: ["no baseline", "No baseline: nothing was measured before the fault (it starts in the warm-up, or nothing succeeded), so there is nothing to recover to"],
  undetermined: ["undetermined", "Undetermined: the run ends too soon after the fault to tell whether it recovered"],
  budget: ["over budget", "Over budget: not simulated, the file asks for more than the budget allows"],
  "": ["no fault", "No fault in this experiment"],
};

// verdictText is a verdict in words (long: the headline's sentence); a
// key missing from verdictWords is written with spaces, never raw.
function verdictText(v, long) {
  const w = verdictWords[v || ""];
  return w ? w[long ? 1 : 0] : String(v).replace(/_/g, " ");
}

// One answer on the page at a time: a run clears the last comparison or
// sweep, and they clear the run (a pinned result stays with its column).
// show is "run" or "batch"; text is the placeholder while it runs.
function clearResults(show, text) {
  const run = show === "run";
  $("results").hidden = !run;
  $("batch-results").hidden = run;
  const el = run ? $("current") : $("batch-out");
  el.replaceChildren();
  const p = document.createElement("p");
  p.className = "empty";
  p.textContent = text;
  el.append(p);
  state.last = null; // Pin pins what is shown
  $("pin").disabled = true;
  revealed = false;
}

// reveal scrolls a result's section to the top of the window when its
// first part arrives (once per run: later parts do not move the page).
let revealed = false;
function reveal(section) {
  if (revealed) return;
  revealed = true;
  section.scrollIntoView({ block: "start" });
}

function render() {
  const two = state.pinned !== null;
  $("columns").classList.toggle("two", two);
  $("pinned").hidden = !two;
  $("unpin").hidden = !two;
  if (state.last) fill($("current"), state.last, two ? "Current" : "Result", two ? state.pinned : null);
  if (two) fill($("pinned"), state.pinned, "Pinned", null);
}

function fill(el, r, title, other) {
  el.replaceChildren();
  const s = r.summaryJSON;
  const h = s.headline;
  const h3 = document.createElement("h3");
  const knobText = Object.keys(r.values).length ? ", knobs " + Object.entries(r.values).map(([k, v]) => `${k}=${knobValueText(k, v)}`).join(" ") : "";
  h3.textContent = `${title}: ${s.experiment}, seed ${s.seed}${knobText}`;
  const verdict = document.createElement("p");
  verdict.className = "verdict " + (h.verdict || "none");
  verdict.textContent = verdictText(h.verdict, true);
  verdict.dataset.verdict = h.verdict;
  const reasons = document.createElement("ul");
  reasons.className = "reasons";
  for (const f of s.faults || []) {
    const li = document.createElement("li");
    li.textContent = `${f.label || "fault"}: ${f.reason || ""}`;
    reasons.append(li);
  }
  el.append(h3, verdict, reasons, headlineTable(s, other && other.summaryJSON), downloads(r), figures(r));
}

function knobValueText(name, v) {
  const k = state.knobs.find((x) => x.name === name);
  if (k && k.type === "choice") return knobText(k.values[v]);
  if (k && k.type === "toggle") return "on";
  return String(v);
}

function headlineTable(s, o) {
  const rows = [
    ["Goodput share (answered in full and in time)", (x) => x.headline.goodput_share, pct],
    ["Requests in flight at the end", (x) => x.headline.in_flight_at_end, num],
    ["Peak requests in flight", (x) => x.headline.peak_in_flight, num],
    ["p99 time to any outcome", (x) => x.headline.p99_outcome_latency_s, secs],
    ["p99 answered latency", (x) => x.headline.p99_answered_latency_s, secs],
    ["User requests (window)", (x) => x.user_requests, num],
    ["Events simulated", (x) => x.events, num],
  ];
  const t = document.createElement("table");
  t.innerHTML = `<caption class="visually-hidden">Headline</caption><thead><tr><th scope="col">Headline</th><th scope="col">Value</th>${o ? '<th scope="col">Pinned</th><th scope="col">Difference</th>' : ""}</tr></thead>`;
  const body = document.createElement("tbody");
  for (const [name, get, fmt] of rows) {
    const tr = document.createElement("tr");
    const cells = [name, fmt(get(s))];
    if (o) {
      const a = get(s), b = get(o);
      cells.push(fmt(b), a == null || b == null ? "–" : diff(a - b, fmt));
    }
    cells.forEach((c, i) => {
      const td = document.createElement(i === 0 ? "th" : "td");
      if (i === 0) td.scope = "row";
      else td.className = "num";
      td.textContent = c;
      tr.append(td);
    });
    body.append(tr);
  }
  t.append(body);
  return t;
}
const pct = (x) => (x == null ? "–" : (100 * x).toFixed(1) + " %");
const num = (x) => (x == null ? "–" : Number(x).toLocaleString("en"));
const secs = (x) => (x == null ? "–" : x < 1 ? (1000 * x).toFixed(1) + " ms" : x.toFixed(2) + " s");
const diff = (d, fmt) => (d > 0 ? "+" : d < 0 ? "−" : "±") + fmt(Math.abs(d));

function blobURL(text, type) { return URL.createObjectURL(new Blob([text], { type })); }

function downloads(r) {
  const name = r.summaryJSON.experiment;
  const items = [[`${name}.toml`, r.req.text, "application/toml"], ["summary.json", r.summary, "application/json"]];
  for (const f of r.figures || []) items.push([f.file, f.svg, "image/svg+xml"]);
  return downloadLinks(items);
}

// downloadLinks is a "downloads" row of links, one per [file, text, type].
function downloadLinks(items) {
  const div = document.createElement("div");
  div.className = "downloads";
  for (const [file, text, type] of items) {
    const a = document.createElement("a");
    a.href = blobURL(text, type);
    a.download = file;
    a.textContent = "Download " + file;
    div.append(a);
  }
  return div;
}

function figures(r) {
  const div = document.createElement("div");
  div.className = "figures";
  for (const f of r.figures || []) {
    const img = document.createElement("img");
    img.src = blobURL(f.svg, "image/svg+xml");
    img.alt = `Figure ${f.file} of ${r.summaryJSON.experiment}, seed ${r.summaryJSON.seed}`;
    img.dataset.file = f.file;
    div.append(img);
  }
  return div;
}

// Sharing: {file, text, seed, values, mode, reps} as deflate-raw,
// base64url, in #s=. mode is "run", "compare" or "sweep" (links written
// before it existed have none: single runs); reps, the replications of a
// comparison or sweep, only with those (compare.js's batchShare).
async function writeFragment() {
  return encodeFragment({ file: state.file, text: $("toml").value, seed: $("seed").value.trim(), values: state.values, mode: state.mode, ...batchShare() });
}

async function encodeFragment(obj) {
  const json = JSON.stringify(obj);
  const stream = new Blob([json]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let bin = "";
  bytes.forEach((b) => (bin += String.fromCharCode(b)));
  const b64 = btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return location.href.split("#")[0] + "#s=" + b64;
}

async function readFragment() {
  try {
    return await decodeFragment(location.hash);
  } catch (e) {
    setStatus("The shared link could not be read: " + e.message);
    return null;
  }
}

// decodeFragment reads a link's (or location.hash's) #s=: null without one.
async function decodeFragment(link) {
  const m = link.match(/#s=([A-Za-z0-9_-]+)$/);
  if (!m) return null;
  const b64 = m[1].replace(/-/g, "+").replace(/_/g, "/");
  const bin = atob(b64 + "===".slice((b64.length + 3) % 4));
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return JSON.parse(await new Response(stream).text());
}

// Wiring.
$("toml").addEventListener("input", () => { state.file = state.file.replace(/^(?!edited: )/, "edited: "); drawGutter([]); scheduleValidate(300); });
$("toml").addEventListener("scroll", syncScroll);
$("run").onclick = () => runNow();
$("stop").onclick = () => stopNow();
// Pin and Unpin hide or disable themselves: the focus moves on with them.
$("pin").onclick = () => { state.pinned = state.last; $("pin").disabled = true; render(); $("unpin").focus(); };
$("unpin").onclick = () => { state.pinned = null; render(); $("run").focus(); };
$("share").onclick = async () => {
  const url = await writeFragment();
  history.replaceState(null, "", url);
  const what = state.mode === "run" ? "this file, seed and knobs" : `this ${state.mode === "compare" ? "comparison" : "sweep"}: file, seed and replications`;
  try { await navigator.clipboard.writeText(url); setStatus(`Share link copied: it reproduces ${what}.`); }
  catch { setStatus("Share link is in the address bar."); }
};
document.addEventListener("keydown", (e) => {
  if ((e.ctrlKey || e.metaKey) && e.key === "Enter") { e.preventDefault(); runNow(); }
  if (e.key === "Escape") stopNow();
});
start().catch((e) => setStatus("The simulator could not start: " + e.message));
