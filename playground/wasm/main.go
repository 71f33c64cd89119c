//go:build js && wasm

// Command wasm is the playground's simulator: ressim compiled to
// WebAssembly, run inside a Web Worker (playground/web/worker.js). It
// installs one global object, ressim, with three functions, and blocks:
//
//	ressim.list()                         -> JSON: the bundled experiments
//	ressim.validate(text)                 -> JSON: {errors, experiment}
//	ressim.run(text, seed, set, progress) -> JSON: {summary, figures, ...}
//
// Every answer is a JSON string (the types in package playground). Nothing is
// fetched or sent: the bundled files are embedded.
package main

import (
	"syscall/js"

	"github.com/ressim/ressim/playground"
)

func main() {
	api := js.Global().Get("Object").New()
	api.Set("list", js.FuncOf(func(js.Value, []js.Value) any { return playground.JSON(playground.List()) }))
	api.Set("validate", js.FuncOf(func(_ js.Value, args []js.Value) any {
		return playground.JSON(playground.Validate(arg(args, 0).String()))
	}))
	api.Set("run", js.FuncOf(func(_ js.Value, args []js.Value) any {
		progress := arg(args, 3)
		var report func(pct int)
		if progress.Type() == js.TypeFunction {
			report = func(pct int) { progress.Invoke(pct) }
		}
		return playground.JSON(playground.Execute(arg(args, 0).String(), arg(args, 1).String(), arg(args, 2).String(), report))
	}))
	js.Global().Set("ressim", api)
	if ready := js.Global().Get("ressimReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {}
}

// arg is args[i], or undefined.
func arg(args []js.Value, i int) js.Value {
	if i < len(args) {
		return args[i]
	}
	return js.Undefined()
}
