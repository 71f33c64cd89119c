//go:build !js

package playground

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/ressim/ressim/internal/tooltest"
)

// TestBrowser drives the page in headless Chromium, served by Serve on
// loopback: it opens the retry storm, runs it to its locked-in verdict,
// switches the retry budget knob on next to the pinned result and sees
// it recover, opens the shared link and gets the identical summary.json
// (and from an old link without a mode, which opens as a single run),
// stops a run, and finds an invalid edit reported at its line. Every step
// leaves a screenshot in the artifacts folder; the layout (elements
// visible, nothing wider than the viewport at 1280x800 and 390x844) and
// the labels of every control are checked. It skips without Chromium
// unless CI is set.
func TestBrowser(t *testing.T) {
	chrome := tooltest.Need(t, "chromium", "chromium-browser", "google-chrome")
	dir := site(t)
	shots := artifacts(t)
	url := serveSite(t, dir)

	ctx := startBrowser(t, chrome, 1280, 800, 6*time.Minute)

	b := &browser{t: t, ctx: ctx, shots: shots}
	// chromedp starts Chromium on the first action: start it before the
	// clock, which measures the page, not the browser's start.
	b.do(chromedp.Navigate("about:blank"))
	start := time.Now()
	b.do(chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`#experiments button[data-file="metastable-retry-storm.toml"]`)))
	b.wait(`document.querySelector("#run").disabled === false`)
	ready := time.Since(start)
	b.do(click("#run")) // no screenshot before: it would count in the time
	b.wait(`document.querySelector("#current .figures img") !== null`)
	first := time.Since(start)
	b.wait(`document.querySelector("#current .verdict")?.dataset.verdict === "locked_in"`)
	b.shot("2-locked-in")
	status := eval[string](b, `document.querySelector("#status").textContent`)
	t.Logf("retry storm: page ready to run %v after navigation, first figure %v; %s", ready.Round(time.Millisecond), first.Round(time.Millisecond), status)
	marks := eval[map[string]float64](b, readMarks)
	// The ten simulated minutes are shown live (at 2 and 5 minutes) before
	// the final overview.
	if l, f := marks["live-figure-inserted"], marks["first-figure-inserted"]; l == 0 || l >= f {
		t.Errorf("the live overview was not in the page before the final one (at %.0f ms, the final at %.0f ms)", l, f)
	}
	writeMeasure(t, shots, fmt.Sprintf("ready_ms %d\nfirst_figure_ms %d\nstatus %s\n\nstages (ms since navigation, duration)\n%s",
		ready.Milliseconds(), first.Milliseconds(), status, stageTable(marks)))
	b.layout()

	// Pin, switch the retry budget on, run: it recovers, beside the pin.
	b.do(click("#pin"), click("#knob-budget"), click("#run"))
	b.shot("1-running")
	b.wait(`document.querySelector("#current .verdict")?.dataset.verdict === "recovered"`)
	b.wait(`document.querySelector("#pinned .verdict")?.dataset.verdict === "locked_in"`)
	b.shot("3-budget-beside-pinned")

	// The share link reproduces the run byte for byte.
	want := eval[string](b, `state.last.summary`)
	link := eval[string](b, `writeFragment()`, chromedp.EvalAwaitPromise)
	// Through about:blank: a link differing only in its fragment would not
	// load the page again.
	b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(link))
	b.wait(`typeof state !== "undefined" && state.last !== null && state.last.summary.length > 0 && state.pinned === null`)
	if got := eval[string](b, `state.last.summary`); got != want {
		t.Errorf("the shared link's summary.json differs from the run it shared")
	}
	b.shot("4-shared-link")
	if got := eval[string](b, `decodeFragment(`+string(mustJSON(link))+`).then((s) => s.mode)`, chromedp.EvalAwaitPromise); got != "run" {
		t.Errorf("a single run's share link carries mode %q, want run", got)
	}
	// A link written before links carried a mode (file, text, seed and
	// knobs only) still opens as a single run, with the same bytes.
	old := eval[string](b, `decodeFragment(`+string(mustJSON(link))+`).then((s) => encodeFragment({ file: s.file, text: s.text, seed: s.seed, values: s.values }))`, chromedp.EvalAwaitPromise)
	b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(old))
	b.wait(`typeof state !== "undefined" && state.last !== null && state.last.summary.length > 0 && state.mode === "run"`)
	if got := eval[string](b, `state.last.summary`); got != want {
		t.Errorf("an old share link (no mode) gives a summary.json different from the run it shared")
	}

	// Stop mid-run: the run button comes back, the page says stopped.
	b.do(click("#run"))
	b.wait(`document.querySelector("#stop").disabled === false`)
	b.do(click("#stop"))
	b.wait(`document.querySelector("#progress-text").textContent === "stopped" && !document.querySelector("#run").disabled`)
	b.shot("5-stopped")

	// An invalid value is reported at its line.
	line := eval[int](b, `(() => { const ta = document.querySelector("#toml");
		ta.value = ta.value.replace("workers = 10", "workers = -3");
		ta.dispatchEvent(new Event("input"));
		return ta.value.slice(0, ta.value.indexOf("workers = -3")).split("\n").length; })()`)
	b.wait(fmt.Sprintf(`(() => { const li = document.querySelector('#problems li[data-line="%d"]'); return li !== null && li.textContent.includes("workers"); })()`, line))
	b.wait(fmt.Sprintf(`document.querySelectorAll("#gutter .bad").length === 1 && document.querySelector("#gutter .bad").textContent === "%d"`, line))
	b.wait(`document.querySelectorAll("#marks .bad-at").length === 1`)
	b.do(click("#problems li button")) // jumps to the line
	b.shot("6-invalid-value")
	b.labels()

	b.keyboard(url)
	b.labels()

	// Phone width: everything stacks, nothing sticks out.
	b.do(chromedp.EmulateViewport(390, 844))
	b.layout()
	b.shot("7-phone")
}

// click clicks the element a CSS selector finds.
func click(sel string) chromedp.Action[chromedp.Void] { return chromedp.Click(chromedp.CSS(sel)) }

// eval evaluates a JavaScript expression in the page.
func eval[T any](b *browser, expr string, opts ...chromedp.EvaluateOption) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expr, opts...))
	if err != nil {
		b.shot("failed")
		b.t.Fatalf("evaluating %.60s: %v", expr, err)
	}
	return v
}

// serveSite serves dir on a free loopback port until the test ends.
func serveSite(t *testing.T, dir string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, os.DirFS(dir)) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return "http://" + ln.Addr().String() + "/"
}

func writeMeasure(t *testing.T, dir, s string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "measurements.txt"), []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// browser runs steps in one page, failing the test on the first error.
type browser struct {
	t     *testing.T
	ctx   context.Context
	shots string
	// tabbed lists the elements Tab focused, in order (keyboard).
	tabbed []string
	// verdicts are the verdict keys the Go code gives (projector).
	verdicts []string
}

func (b *browser) do(actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, actions...); err != nil {
		b.shot("failed")
		b.t.Fatal(err)
	}
}

// wait polls a JavaScript condition until it holds.
func (b *browser) wait(cond string) {
	b.t.Helper()
	poll := chromedp.Poll[chromedp.Void](cond, chromedp.WithPollingTimeout(60*time.Second))
	_, err := chromedp.Run(b.ctx, poll)
	if err != nil && strings.Contains(err.Error(), "Cannot find context with specified id") {
		// The poll started in the page being navigated away from.
		_, err = chromedp.Run(b.ctx, poll)
	}
	if err != nil {
		b.shot("failed")
		status, _ := chromedp.Run(b.ctx, chromedp.Text(chromedp.CSS(`#status`)))
		b.t.Fatalf("waiting for %s: %v (status: %q)", cond, err, status)
	}
}

// shot writes a full-page PNG screenshot.
func (b *browser) shot(name string) {
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Logf("screenshot %s: %v", name, err)
		return
	}
	p := filepath.Join(b.shots, name+".png")
	if err := os.WriteFile(p, png, 0o644); err != nil {
		b.t.Error(err)
	}
	b.t.Logf("screenshot %s", p)
}

// layout checks that the main parts are visible and nothing is wider than
// the viewport.
func (b *browser) layout() {
	b.t.Helper()
	bad := eval[[]string](b, `(() => {
		const bad = [];
		// The results: a single run's, or a comparison's or sweep's (one
		// at a time).
		for (const sel of ["h1", "#catalogue", "#toml", "#gutter", "#run", "#stop", "#seed", "#results:not([hidden]), #batch-results:not([hidden])"]) {
			const el = document.querySelector(sel);
			const r = el && el.getBoundingClientRect();
			if (!r || r.width === 0 || r.height === 0) bad.push(sel + " not visible");
		}
		if (document.documentElement.scrollWidth > window.innerWidth + 1)
			bad.push("page wider than the viewport: " + document.documentElement.scrollWidth + " > " + window.innerWidth);
		const a = document.querySelector("#workbench").getBoundingClientRect(), c = document.querySelector("#catalogue").getBoundingClientRect();
		if (a.left < c.right - 1 && a.top < c.bottom - 1 && c.top < a.bottom - 1 && c.left < a.right - 1) bad.push("catalogue overlaps the editor");
		return bad; })()`)
	for _, s := range bad {
		b.t.Error("layout: " + s)
	}
}

// labels checks that every control has an accessible name: in the DOM (a
// label, an aria-label, or a button's text), and as Chromium's
// accessibility tree computes it (every focusable role named).
func (b *browser) labels() {
	b.t.Helper()
	b.axNames()
	bad := eval[[]string](b, `[...document.querySelectorAll("input, select, textarea, button")].filter((el) => {
		if (el.getAttribute("aria-label")) return false;
		if (el.tagName === "BUTTON") return el.textContent.trim() === "";
		return !el.labels || el.labels.length === 0;
	}).map((el) => el.outerHTML.slice(0, 80))`)
	if len(bad) > 0 {
		b.t.Errorf("controls without a label: %s", strings.Join(bad, "; "))
	}
}
