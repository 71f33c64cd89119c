// Command wasmjump threads the jumps of a WebAssembly module built by the
// Go toolchain and forwards its frame loads (package wasmjump): the scripts that measure the WebAssembly
// benchmark run it on their test binaries, as playground.Build does on the
// page's main.wasm, so that what they measure is what the page runs.
//
// Usage (from the repository root):
//
//	go run ./internal/wasmjump/cmd/wasmjump IN OUT
//
// It writes OUT (which may be IN) whole or not at all, and prints what it
// changed to standard error.
package main
