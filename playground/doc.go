// Package playground is ressim in a web page: the static site (web/), the
// simulator's entry points the WebAssembly build exposes to it (api.go
// for validate and run, batch.go for compare and sweep, gameday.go and
// gamealerts.go for the game days, used by playground/wasm), the build
// that assembles the site (Build), and the HTTP handler that serves it
// (Handler, used by 'ressim serve').
//
// The site is plain files: index.html, app.js, compare.js, gameday.js,
// worker.js, style.css, catalogue.json (List, written at build time), wasm_exec.js
// (the Go toolchain's) and main.wasm. The WebAssembly build holds only
// api.go's and batch.go's part: the server and the build are left out of
// it (//go:build !js). It runs offline once
// loaded and sends nothing anywhere (docs/playground.md).
package playground
