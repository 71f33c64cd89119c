//go:build js && wasm

// Command wasm is the playground's simulator: ressim compiled to
// WebAssembly, run inside a Web Worker (playground/web/worker.js). It
// installs one global object, ressim, with seven functions, and blocks:
//
//	ressim.list()                         -> JSON: the bundled experiments
//	ressim.validate(text)                 -> JSON: {errors, experiment}
//	ressim.run(text, seed, set, progress, hooks) -> JSON: {summary, figures, ...}
//	ressim.compare(text, seed, reps, progress)  -> JSON: {arms, files, figures, ...}
//	ressim.sweep(text, seed, reps, progress)    -> JSON: {files, figures, ...}
//	ressim.play(text, moves, seed)              -> JSON: {file, summary, series, openmetrics, events, verdict}
//	ressim.score(text, moves, seed, firing)     -> JSON: {detect_s, mitigate_s, recovered, verdict, lost, ...}
//
// play and score are the game day's (playground/gameday.go): moves is the
// JSON text [{"move": 0, "at_ms": 73500}, ...], firing the JSON text of
// the alert firing times in seconds, [12.5, 40].
//
// progress(pct) hears the share of simulated time done; hooks, optional,
// may have stage(name), told as each stage of the run ends (see
// playground.Hooks), figure(file, svg), handed each figure as soon as it
// is drawn, and live(file, svg), handed the overview drawn while a large
// run is still being simulated.
//
// Every answer is a JSON string (the types in package playground). Nothing is
// fetched or sent: the bundled files are embedded.
package main

import (
	"syscall/js"

	"github.com/ressim/ressim/playground"
)

func main() {
	playground.TuneGC()
	api := js.Global().Get("Object").New()
	api.Set("list", js.FuncOf(func(js.Value, []js.Value) any { return playground.JSON(playground.List()) }))
	api.Set("validate", js.FuncOf(func(_ js.Value, args []js.Value) any {
		return playground.JSON(playground.Validate(arg(args, 0).String()))
	}))
	api.Set("run", js.FuncOf(func(_ js.Value, args []js.Value) any {
		return playground.JSON(playground.ExecuteWith(arg(args, 0).String(), arg(args, 1).String(), arg(args, 2).String(), hooks(args)))
	}))
	api.Set("compare", batch(playground.Compare))
	api.Set("sweep", batch(playground.Sweep))
	api.Set("play", js.FuncOf(func(_ js.Value, args []js.Value) any {
		return playground.JSON(playground.Play(str(args, 0), str(args, 1), str(args, 2)))
	}))
	api.Set("score", js.FuncOf(func(_ js.Value, args []js.Value) any {
		return playground.JSON(playground.ScoreGame(str(args, 0), str(args, 1), str(args, 2), str(args, 3)))
	}))
	js.Global().Set("ressim", api)
	if ready := js.Global().Get("ressimReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {}
}

// hooks reads run's progress function (args[3]) and hooks object
// (args[4]) into playground.Hooks.
func hooks(args []js.Value) playground.Hooks {
	var h playground.Hooks
	if p := arg(args, 3); p.Type() == js.TypeFunction {
		h.Progress = func(pct int) { p.Invoke(pct) }
	}
	o := arg(args, 4)
	if o.Type() != js.TypeObject {
		return h
	}
	if f := o.Get("stage"); f.Type() == js.TypeFunction {
		h.Stage = func(name string) { f.Invoke(name) }
	}
	if f := o.Get("figure"); f.Type() == js.TypeFunction {
		h.Figure = func(fig playground.Figure) { f.Invoke(fig.File, fig.SVG) }
	}
	if f := o.Get("live"); f.Type() == js.TypeFunction {
		h.Live = func(fig playground.Figure) { f.Invoke(fig.File, fig.SVG) }
	}
	return h
}

// arg is args[i], or undefined.
func arg(args []js.Value, i int) js.Value {
	if i < len(args) {
		return args[i]
	}
	return js.Undefined()
}

// str is args[i] as a string: "" when missing, undefined or null.
func str(args []js.Value, i int) string {
	v := arg(args, i)
	if v.Type() != js.TypeString {
		return ""
	}
	return v.String()
}

// batch wraps playground.Compare or Sweep: (text, seed, reps, progress),
// progress called with (runs done, total).
func batch(f func(text, seed, reps string, progress func(done, total int)) playground.Batched) js.Func {
	return js.FuncOf(func(_ js.Value, args []js.Value) any {
		progress := arg(args, 3)
		var report func(done, total int)
		if progress.Type() == js.TypeFunction {
			report = func(done, total int) { progress.Invoke(done, total) }
		}
		return playground.JSON(f(arg(args, 0).String(), arg(args, 1).String(), arg(args, 2).String(), report))
	})
}
