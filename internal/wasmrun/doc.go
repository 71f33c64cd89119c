// Package wasmrun runs a Go program built for js/wasm (a test binary,
// usually) in headless Chromium and returns what it printed and its exit
// code, as Go's go_js_wasm_exec does in node.
//
// It exists to measure WebAssembly where ressim's workshop runs it: the
// page's main.wasm runs in the browser's V8, which compiles WebAssembly
// differently from the V8 of the node on the PATH (issue 31 measured the
// page's simulation stage of mm10 at 2.8x native in Chromium 156, pinned
// to one core, where the whole BenchmarkExecute/mm10 was 3.5-4.0x in
// Chromium and 3.7x in node 20; docs/performance.md, sixth pass). With it, scripts/wasm-ratio.sh runs the same
// test binary in either (RUNTIME=chromium).
//
// The program sees node's file-system API (the part syscall/fs_js.go
// calls) implemented in the page by fs.js: what it writes stays in the
// page's memory, and a path it has not written is read from the host,
// read-only, through the server Run starts on the loopback address, and
// only under Options.Root (an os.Root, so no path or link leads out of
// it). Every request the server answers carries a random token in its
// path, so no other process on the machine can read through it. The
// working directory starts at Options.Dir, and /tmp exists (empty).
// Standard output and error reach the caller when the program exits;
// nothing streams.
package wasmrun
