// Command wasmrun runs a Go program built for js/wasm in headless
// Chromium (package wasmrun), as go_js_wasm_exec runs one in node, so it
// serves as go test's -exec:
//
//	GOOS=js GOARCH=wasm go test -exec="$PWD/wasmrun" ./sim/dist
//	wasmrun [-chrome PATH] [-root DIR] [-timeout D] [-js-flags FLAGS] PROGRAM [ARGS...]
//
// The program runs in the current directory and may read the files
// under -root (default: the Go module holding the current directory);
// what it writes stays in the page. wasmrun prints its standard output
// and error when it exits and exits with its code.
package main
