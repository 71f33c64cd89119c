// Runs an experiment file in the playground's WebAssembly build under
// Node, the way the page's worker does, and writes summary.json to
// stdout. Usage: node run.js WASM_EXEC_JS MAIN_WASM FILE [SEED]
"use strict";
const fs = require("fs");
const [wasmExec, wasmFile, tomlFile, seed] = process.argv.slice(2);
require(wasmExec);
const go = new Go();
globalThis.ressimReady = () => {
  const out = JSON.parse(globalThis.ressim.run(fs.readFileSync(tomlFile, "utf8"), seed || "", "{}", null));
  if (out.error) {
    process.stderr.write(out.error + "\n");
    process.exit(1);
  }
  // Synchronous: process.exit would cut an asynchronous write to a pipe
  // at 64 KiB boundaries.
  fs.writeSync(1, out.summary);
  process.exit(0);
};
WebAssembly.instantiate(fs.readFileSync(wasmFile), go.importObject).then((r) => go.run(r.instance));
