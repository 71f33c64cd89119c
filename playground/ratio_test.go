//go:build !js

package playground

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/ressim/ressim/internal/tooltest"
)

// TestWasmRatio measures what issue 31 asks of WebAssembly where the
// workshop runs it, in Chromium: the simulation of an experiment by the
// page's main.wasm (its run function, from the "parsed" stage to the
// "simulated" one, so parsing and drawing are left out) against the same
// function natively in this process. Each side first runs once unmeasured
// (V8 compiles the hot code on its first run). It is a measurement, not a
// check: set RESSIM_WASM_RATIO to the number of runs of each block (and
// RESSIM_WASM_RATIO_FILE to an experiment, default mm10). Run it on both
// cores: pinned to one, Chromium's WebAssembly slows more than native
// code does, and the ratio then means little (docs/performance.md, sixth
// pass). The issue's own benchmark, whole, runs in Chromium through
// RUNTIME=chromium scripts/wasm-ratio.sh.
func TestWasmRatio(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("RESSIM_WASM_RATIO"))
	if n <= 0 {
		t.Skip("set RESSIM_WASM_RATIO to the number of alternated rounds")
	}
	file := os.Getenv("RESSIM_WASM_RATIO_FILE")
	if file == "" {
		file = "../experiments/mm10.toml"
	}
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	chrome := tooltest.Need(t, "chromium", "chromium-browser", "google-chrome")
	dir := site(t)
	// Native rounds run before Chromium starts and after it has closed:
	// alternated with it, they took a fifth longer (162 against 200 ms a
	// run of mm10), as the browser's compiler and collector threads went
	// on between its runs. The two blocks bracket the browser's, so a drift
	// of the machine shows in both.
	native := nativeRounds(t, string(text), n)
	wasm := chromiumRounds(t, chrome, dir, string(text), n)
	native = append(native, nativeRounds(t, string(text), n)...)
	slices.Sort(native)
	slices.Sort(wasm)
	mn, mw := native[len(native)/2], wasm[len(wasm)/2]
	s := fmt.Sprintf("%s: native %.1f ms (median of %d runs, before and after Chromium's), Chromium %.1f ms (median of %d), ratio %.2f\nnative (sorted) %.1f\nChromium (sorted) %.1f\n",
		filepath.Base(file), mn, len(native), mw, len(wasm), mw/mn, native, wasm)
	t.Log("\n" + s)
	writeFile(t, artifacts(t), "ratio.txt", s)
}

// nativeRounds runs nativeSimulation once to warm up, then n times.
func nativeRounds(t *testing.T, text string, n int) []float64 {
	t.Helper()
	nativeSimulation(t, text)
	out := make([]float64, n)
	for i := range out {
		out[i] = nativeSimulation(t, text)
	}
	return out
}

// chromiumRounds starts Chromium, loads main.wasm from the built site in
// dir into a page, runs text once to warm up and n times measured, and
// closes the browser.
func chromiumRounds(t *testing.T, chrome, dir, text string, n int) []float64 {
	t.Helper()
	execJS, err := os.ReadFile(filepath.Join(dir, ExecFile))
	if err != nil {
		t.Fatal(err)
	}
	ctx := startBrowser(t, chrome, 1280, 800, time.Duration(n+1)*time.Minute)
	// A static file of the site gives the page its origin without starting
	// the app; wasm_exec.js goes in through the debugger, which the page's
	// Content-Security-Policy does not cover.
	if err := chromedp.Do(ctx, chromedp.Navigate(serveSite(t, dir)+CatalogueFile)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](string(execJS)+";true")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](startGo, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf(simulateJS, strconv.Quote(text))
	var out []float64
	for i := 0; i <= n; i++ {
		ms, err := chromedp.Run(ctx, chromedp.Evaluate[float64](script))
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 { // the first run compiles the hot code
			out = append(out, ms)
		}
	}
	return out
}

// startGo instantiates main.wasm in the page and resolves once its Go has
// published the ressim object.
const startGo = `(async () => {
	const go = new Go();
	const ready = new Promise((r) => { globalThis.ressimReady = r; });
	const bytes = await (await fetch("main.wasm")).arrayBuffer();
	const { instance } = await WebAssembly.instantiate(bytes, go.importObject);
	go.run(instance);
	await ready;
	return true;
})()`

// simulateJS runs the quoted experiment once and returns the milliseconds
// from its "parsed" stage to its "simulated" one.
const simulateJS = `(() => {
	let parsed = 0, simulated = 0;
	const out = JSON.parse(globalThis.ressim.run(%s, "", "{}", null, { stage: (s) => {
		if (s === "parsed") parsed = performance.now();
		if (s === "simulated") simulated = performance.now();
	} }));
	if (out.error) throw new Error(out.error);
	return simulated - parsed;
})()`

// nativeSimulation is simulateJS natively: ExecuteWith's time from
// "parsed" to "simulated", in milliseconds.
func nativeSimulation(t *testing.T, text string) float64 {
	t.Helper()
	var parsed, simulated time.Time
	ran := ExecuteWith(text, "", "{}", Hooks{Stage: func(s string) {
		switch s {
		case "parsed":
			parsed = time.Now()
		case "simulated":
			simulated = time.Now()
		}
	}})
	if ran.Error != "" {
		t.Fatal(ran.Error)
	}
	return float64(simulated.Sub(parsed).Microseconds()) / 1e3
}
