// Runs ressim compare or sweep in the playground's WebAssembly build under
// Node, the way the page's worker does, and writes one of its files
// (compare.json, sweep.json, ...) to stdout.
// Usage: node batch.js WASM_EXEC_JS MAIN_WASM OP FILE SEED REPS OUTPUT
"use strict";
const fs = require("fs");
const [wasmExec, wasmFile, op, tomlFile, seed, reps, output] = process.argv.slice(2);
require(wasmExec);
const go = new Go();
globalThis.ressimReady = () => {
  const out = JSON.parse(globalThis.ressim[op](fs.readFileSync(tomlFile, "utf8"), seed, reps, null));
  const file = (out.files || []).find((f) => f.file === output);
  if (out.error || out.stopped || !file) {
    process.stderr.write((out.error || out.stopped || "no " + output) + "\n");
    process.exit(1);
  }
  // Synchronous: process.exit would cut an asynchronous write to a pipe.
  fs.writeSync(1, file.text);
  process.exit(0);
};
WebAssembly.instantiate(fs.readFileSync(wasmFile), go.importObject).then((r) => go.run(r.instance));
