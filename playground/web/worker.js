// The playground's Web Worker: it runs the simulator (main.wasm, the Go
// program in playground/wasm) off the page's thread, so the page never
// freezes. Messages in: {op: "init", module}, then {id, op, args}; out:
// {op: "ready"}, {id, progress}, {id, result} (result is the simulator's
// JSON text). Ops: list, validate, run, and compare and sweep (progress
// also carries the runs done and their total). The page stops a run by terminating the worker.
"use strict";
importScripts("wasm_exec.js");

let pending = [];
let ready = false;

self.onmessage = (ev) => {
  const m = ev.data;
  if (m.op === "init") {
    const go = new Go();
    self.ressimReady = () => {
      ready = true;
      self.postMessage({ op: "ready" });
      pending.forEach(handle);
      pending = [];
    };
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
      result = api.run(m.args.text, m.args.seed, JSON.stringify(m.args.set || {}), (pct) =>
        self.postMessage({ id: m.id, progress: pct }),
      );
      break;
    case "compare":
    case "sweep":
      result = api[m.op](m.args.text, m.args.seed, m.args.reps || "", (done, total) =>
        self.postMessage({ id: m.id, progress: Math.floor((100 * done) / total), done, total }),
      );
      break;
    default:
      result = JSON.stringify({ error: "unknown operation " + m.op });
  }
  self.postMessage({ id: m.id, result });
}
