// The playground's compare and sweep modes: run the file's variants (all
// of them x N replications, as ressim compare) or its [sweep] grid (as
// ressim sweep) in a worker of their own, with progress and Stop, and show
// the CLI's table, figures and a verdict per variant. It uses app.js's
// $, newWorker, setStatus, blobURL and downloadLinks, and listens for the "ressim:info"
// event app.js sends after each validation. Knobs do not apply here: a
// comparison is of the file as written in the editor, so that its
// compare.json is the one ressim compare writes.
"use strict";

// last is the answer of the last comparison or sweep shown.
const batch = { info: null, worker: null, running: false, op: "", last: null };

// The page starts at a few replications so that a room is not kept
// waiting; the field says what the file asks for.
const pageReplications = { compare: 3, sweep: 1 };

document.addEventListener("ressim:info", (ev) => showBatchPanel(ev.detail));

function showBatchPanel(info) {
  if (info && (!batch.info || batch.info.name !== info.name)) {
    delete $("reps").dataset.touched;
    delete $("sweep-reps").dataset.touched;
  }
  batch.info = info;
  const has = info && (info.variants.length > 0 || info.sweep);
  $("batch").hidden = !has;
  if (!has) return;
  $("compare-row").hidden = info.variants.length === 0;
  $("sweep-row").hidden = !info.sweep;
  const parts = [];
  if (info.variants.length > 0) parts.push(describeBatch("compare", info, $("reps"), info.variants.length + 1, `${info.variants.length + 1} variants (base, ${info.variants.join(", ")})`));
  if (info.sweep) parts.push(describeBatch("sweep", info, $("sweep-reps"), info.sweep.cells, `${info.sweep.cells} cells, mapping ${info.sweep.metric}`));
  $("reps-note").textContent = parts.join(" ") + " Knobs do not apply here: the file as written is run, as ressim compare and sweep run it.";
  if (!batch.running) $("compare").disabled = $("sweep").disabled = false;
}

// describeBatch sets a replications field to the page's reduced default
// (unless typed into) and says how many runs its button starts.
function describeBatch(op, info, field, units, what) {
  const reduced = Math.min(info.replications, pageReplications[op]);
  if (!field.dataset.touched) field.value = String(reduced);
  const reps = Number(field.value) || info.replications;
  const note = reduced < info.replications ? ` (the file asks for ${info.replications}; the page starts at ${reduced} to keep it quick: set ${info.replications} for the CLI's own numbers)` : "";
  return `${op === "compare" ? "Compare" : "Sweep"}: ${what} x ${reps} replication(s) = ${units * reps} runs${note}.`;
}

async function runBatch(op) {
  if (batch.running || !batch.info) return;
  batch.running = true;
  batch.op = op;
  state.mode = op; // what a share link reruns (app.js)
  $("compare").disabled = $("sweep").disabled = true;
  $("batch-stop").disabled = false;
  $("batch-progress").value = 0;
  $("batch-progress-text").textContent = "0 %";
  if (!batch.worker) batch.worker = newWorker();
  const reps = $(op === "compare" ? "reps" : "sweep-reps").value.trim();
  const req = { text: $("toml").value, seed: $("seed").value.trim(), reps, name: batch.info.name };
  setStatus(op === "compare" ? "Comparing the variants…" : "Running the sweep…");
  $("batch-title").textContent = `${op === "compare" ? "Comparison" : "Sweep"}: ${req.name}`;
  clearResults("batch", op === "compare" ? "Comparing the variants…" : "Running the sweep…"); // app.js
  batch.last = null;
  const t0 = performance.now();
  const r = await batch.worker.call(op, req, (pct) => {
    $("batch-progress").value = pct;
    $("batch-progress-text").textContent = pct + " % of the runs";
  });
  if (!batch.running || batch.op !== op) return; // stopped meanwhile
  endBatch();
  const ms = Math.round(performance.now() - t0);
  const el = $("batch-out");
  if (r.error) {
    setStatus(op === "compare" ? "The comparison was refused." : "The sweep was refused.");
    el.replaceChildren(paragraph("error", "Refused: " + r.error));
    el.firstChild.dataset.refused = "true";
    if (/budget/.test(r.error)) el.append(paragraph("note", "The page's budget is fixed (ressim's default, with 1 GiB of heap): lower the replications here, or run it with the CLI, whose flags raise the limits."));
    reveal($("batch-results"));
    return;
  }
  setStatus(`${op === "compare" ? "Comparison" : "Sweep"} done in ${ms} ms: ${r.runs} runs, seed ${r.seed}.`);
  batch.last = r;
  renderBatch(op, r, req);
  reveal($("batch-results")); // app.js
}

// The largest replication count a share link may set (the fields' max).
const maxShareReps = 10000;

// batchShare: what app.js's share link adds for a comparison or sweep,
// the replication count in its field ({} for a single run, or if empty).
function batchShare() {
  if (state.mode !== "compare" && state.mode !== "sweep") return {};
  const reps = Number($(state.mode === "compare" ? "reps" : "sweep-reps").value);
  return Number.isInteger(reps) && reps >= 1 && reps <= maxShareReps ? { reps } : {};
}

// restoreBatch opens a shared link's comparison or sweep: it sets the
// replications the link carries and runs it, with the link's file and
// seed already in place. False for a single run's link (or an old one,
// without a mode), and if the file has nothing to compare or sweep.
function restoreBatch(shared) {
  const op = shared.mode;
  if ((op !== "compare" && op !== "sweep") || !batch.info) return false;
  if (op === "compare" ? batch.info.variants.length === 0 : !batch.info.sweep) return false;
  const field = $(op === "compare" ? "reps" : "sweep-reps");
  if (Number.isInteger(shared.reps) && shared.reps >= 1 && shared.reps <= maxShareReps) {
    field.value = String(shared.reps);
    field.dataset.touched = "true";
  }
  showBatchPanel(batch.info);
  runBatch(op);
  return true;
}

function endBatch() {
  batch.running = false;
  $("batch-stop").disabled = true;
  $("compare").disabled = $("sweep").disabled = false;
}

function stopBatch() {
  if (!batch.running) return;
  batch.worker.stop();
  batch.worker = null;
  endBatch();
  $("batch-progress-text").textContent = "stopped";
  clearResults("batch", "Stopped: the comparison or sweep was abandoned. Start it again to see a result.");
  setStatus("Stopped: the comparison or sweep was abandoned, nothing was kept.");
}

function paragraph(cls, text) {
  const p = document.createElement("p");
  if (cls) p.className = cls;
  p.textContent = text;
  return p;
}

// renderBatch shows the answer: what was run (and the CLI command giving
// the same files), the verdict per variant, the CLI's table, the figures
// and the downloads.
function renderBatch(op, r, req) {
  const el = $("batch-out");
  const name = req.name;
  const cmd = `ressim ${op} ${name}.toml --seed ${r.seed} --replications ${r.replications}`;
  const what = paragraph("", `${r.runs} runs (${r.replications} replication(s) each), seed ${r.seed}. The same files as `);
  const code = document.createElement("code");
  code.textContent = cmd;
  what.append(code, ".");
  el.replaceChildren(what);
  if (r.stopped) el.append(paragraph("error", "Stopped early, showing the whole replications that finished: " + r.stopped));
  if (op === "compare") el.append(verdictTable(r.arms));
  const md = (r.files || []).find((f) => f.file.endsWith(".md"));
  if (md) el.append(markdownTables(md.text));
  el.append(batchDownloads(r, name, req.text), batchFigures(r, name));
  for (const w of r.warnings || []) el.append(paragraph("error", w));
}

// verdictTable: per variant, the first fault's verdicts over its
// replications and the file's expectations on it.
function verdictTable(arms) {
  const t = document.createElement("table");
  t.className = "verdicts";
  t.innerHTML = `<caption>Verdict per variant (first fault, over the replications)</caption><thead><tr><th scope="col">Variant</th><th scope="col">Verdict</th><th scope="col">Expectations</th></tr></thead>`;
  const body = document.createElement("tbody");
  for (const a of arms) {
    const tr = document.createElement("tr");
    tr.dataset.variant = a.name;
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = a.name;
    if (a.description) th.title = a.description;
    const v = document.createElement("td");
    const main = a.verdicts.length ? a.verdicts[0].verdict : "";
    v.className = "verdict " + (main || "none");
    v.dataset.verdict = main;
    v.textContent = a.verdicts.length
      ? a.verdicts.map((x) => `${verdictText(x.verdict)} ${x.count}/${a.replications}`).join(", ")
      : "no fault to judge";
    const e = document.createElement("td");
    for (const x of a.expectations || []) {
      const s = document.createElement("div");
      s.className = x.ok ? "ok" : "error";
      s.textContent = x.text;
      e.append(s);
    }
    tr.append(th, v, e);
    body.append(tr);
  }
  t.append(body);
  return t;
}

// markdownTables renders the CLI's compare.md or sweep.md: headings,
// paragraphs and pipe tables, compact for a projector: numbers to three
// or four significant digits (the downloads keep every digit), a mean,
// its interval and a difference each kept on one line, and compare.md's
// table (a row per variant, a column per metric) turned to a row per
// metric, a column per variant, which fits the width of a slide.
function markdownTables(md) {
  const div = document.createElement("div");
  div.className = "md";
  let rows = null;
  const flush = () => {
    if (rows) div.append(pipeTable(rows[0][0] === "variant" ? transpose(rows) : rows));
    rows = null;
  };
  for (const line of md.split("\n")) {
    if (line.startsWith("|")) {
      const cells = line.slice(1, -1).split("|").map((c) => c.trim());
      if (cells.every((c) => /^-+$/.test(c))) continue;
      (rows = rows || []).push(cells);
      continue;
    }
    flush();
    if (line.startsWith("#")) div.append(Object.assign(document.createElement("h3"), { textContent: line.replace(/^#+\s*/, "") }));
    else if (line.trim()) div.append(paragraph("note", line));
  }
  flush();
  return div;
}

function transpose(rows) {
  const t = rows[0].map((_, j) => rows.map((r) => r[j] ?? ""));
  t[0][0] = "metric";
  return t;
}

// pipeTable: the first row as the header, the first column as row
// headers, every other cell a compact value.
function pipeTable(rows) {
  const table = document.createElement("table");
  const head = table.createTHead().insertRow();
  for (const c of rows[0]) head.append(Object.assign(document.createElement("th"), { scope: "col", textContent: c }));
  const body = table.createTBody();
  for (const cells of rows.slice(1)) {
    const tr = body.insertRow();
    cells.forEach((c, i) => {
      const td = document.createElement(i === 0 ? "th" : "td");
      if (i === 0) {
        td.scope = "row";
        td.textContent = c;
      } else {
        td.className = "num";
        compactCell(td, c);
      }
      tr.append(td);
    });
  }
  return table;
}

// compactCell writes a cell of compare.md ("731.3 [720.5, 742] Δ -495.8
// [-505.6, -485.9] *") as two unbreakable lines: the value with its
// interval, and the difference from the base, marked when significant.
function compactCell(td, text) {
  const [value, delta] = text.split(/\s*Δ\s*/);
  td.append(nowrap("value", compactNumbers(value)));
  if (delta !== undefined) {
    const d = nowrap("delta" + (/\*\s*$/.test(delta) ? " significant" : ""), "Δ " + compactNumbers(delta));
    if (/\*\s*$/.test(delta)) d.title = "its 95 % interval excludes zero";
    td.append(document.createElement("br"), d);
  }
}

function nowrap(cls, text) {
  return Object.assign(document.createElement("span"), { className: cls, textContent: text });
}

// compactNumbers rounds every decimal number in s to 3 significant
// digits (4 from 1000 up, as integers), with a true minus sign.
function compactNumbers(s) {
  return s.replace(/-?\d+(?:\.\d+)?(?:e[-+]?\d+)?/gi, (m) => {
    const x = Number(m);
    if (!Number.isFinite(x)) return m;
    const a = Math.abs(x);
    const t = a >= 100 || Number.isInteger(x) ? String(Math.round(x)) : String(Number(x.toPrecision(3)));
    return t.replace(/^-/, "−");
  });
}

function batchDownloads(r, name, text) {
  const items = [[`${name}.toml`, text, "application/toml"]];
  for (const f of r.files || []) items.push([f.file, f.text, f.file.endsWith(".json") ? "application/json" : "text/plain"]);
  for (const f of r.figures || []) items.push([f.file, f.svg, "image/svg+xml"]);
  return downloadLinks(items);
}

function batchFigures(r, name) {
  const div = document.createElement("div");
  div.className = "figures";
  for (const f of r.figures || []) {
    const img = document.createElement("img");
    img.src = blobURL(f.svg, "image/svg+xml");
    img.alt = `Figure ${f.file} of ${name}, seed ${r.seed}, ${r.replications} replication(s)`;
    img.dataset.file = f.file;
    div.append(img);
  }
  return div;
}

$("compare").onclick = () => runBatch("compare");
$("sweep").onclick = () => runBatch("sweep");
$("batch-stop").onclick = () => stopBatch();
for (const id of ["reps", "sweep-reps"]) {
  $(id).addEventListener("input", () => {
    $(id).dataset.touched = "true";
    if (batch.info) showBatchPanel(batch.info);
  });
}
