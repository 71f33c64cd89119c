// The playground's Web Worker: it runs the simulator (main.wasm, the Go
// program in playground/wasm) off the page's thread, so the page never
// freezes. One Go instance stays warm for every call. Messages in:
// {op: "init", module} (the compiled main.wasm), then {id, op, args}; out:
// {op: "ready"}, {op: "mark", name, t} (a stage's end, t in ms since
// 1970, for the page's performance timeline), {id, progress},
// {id, figure: {file, svg}} (each figure as soon as it is drawn, before
// the result), {id, live: {file, svg}} (the overview of a large run drawn
// while it is simulated) and {id, result} (the simulator's JSON text). Ops: list,
// validate, run, and compare and sweep (progress also carries the runs
// done and their total), and the game day's play and score (args {text,
// moves, seed, firing}: moves [{move, at_ms}] and firing [seconds], as
// arrays or their JSON text). The page stops a run by terminating the
// worker.
"use strict";
importScripts("wasm_exec.js");

let pending = [];
let ready = false;

function mark(name) {
  self.postMessage({ op: "mark", name, t: performance.timeOrigin + performance.now() });
}

self.onmessage = (ev) => {
  const m = ev.data;
  if (m.op === "init") {
    const go = new Go();
    self.ressimReady = () => {
      ready = true;
      mark("go-ready");
      self.postMessage({ op: "ready" });
      pending.forEach(handle);
      pending = [];
    };
    mark("go-start");
    WebAssembly.instantiate(m.module, go.importObject).then((inst) => go.run(inst));
    return;
  }
  if (!ready) {
    pending.push(m);
    return;
  }
  handle(m);
};

function handle(m) {
  const api = self.ressim;
  let result;
  switch (m.op) {
    case "list":
      result = api.list();
      break;
    case "validate":
      result = api.validate(m.args.text);
      break;
    case "run":
      result = run(m, api);
      break;
    case "compare":
    case "sweep":
      result = api[m.op](m.args.text, m.args.seed, m.args.reps || "", (done, total) =>
        self.postMessage({ id: m.id, progress: Math.floor((100 * done) / total), done, total }),
      );
      break;
    case "play":
      result = api.play(m.args.text, jsonText(m.args.moves), m.args.seed || "");
      break;
    case "score":
      result = api.score(m.args.text, jsonText(m.args.moves), m.args.seed || "", jsonText(m.args.firing));
      break;
    default:
      result = JSON.stringify({ error: "unknown operation " + m.op });
  }
  self.postMessage({ id: m.id, result });
}

// jsonText is v as JSON text: a string as is, anything else encoded
// ("" for undefined or null).
function jsonText(v) {
  if (v === undefined || v === null) return "";
  return typeof v === "string" ? v : JSON.stringify(v);
}

function run(m, api) {
  let figures = 0;
  let lives = 0;
  const hooks = {
    stage: (name) => mark("run-" + (name === "figure" ? "figure-" + ++figures : name === "live" ? "live-" + ++lives : name)),
    figure: (file, svg) => self.postMessage({ id: m.id, figure: { file, svg } }),
    live: (file, svg) => self.postMessage({ id: m.id, live: { file, svg } }),
  };
  const progress = (pct) => self.postMessage({ id: m.id, progress: pct });
  return api.run(m.args.text, m.args.seed, JSON.stringify(m.args.set || {}), progress, hooks);
}
