//go:build !js

package playground

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/ressim/ressim/internal/tooltest"
)

// TestBrowserCompareSweep drives the page's compare and sweep modes in
// headless Chromium: it opens the retry-budget storm, compares its two
// variants (2 replications) and finds a verdict per variant (the budget
// recovers, without it the storm locks in), opens the comparison's share
// link in a fresh browser context and gets the same mode, replications
// and compare.json (sharedComparison), stops a comparison mid-way,
// runs goodput-vs-load's sweep (1 replication, its grid cut to 4 loads in
// the editor) and sees its load curve, and metastable-phase's (cut to 3 x
// 2 cells) and sees its phase diagram,
// and asks for a sweep over the page's budget and gets the refusal with
// the reason. Screenshots go to the artifacts folder (8-compare.png,
// 9-sweep.png, 10-refused.png).
func TestBrowserCompareSweep(t *testing.T) {
	chrome := tooltest.Need(t, "chromium", "chromium-browser", "google-chrome")
	dir := site(t)
	shots := artifacts(t)
	url := serveSite(t, dir)

	// Three batches of runs in WebAssembly (the comparison twice) on a
	// busy 2-core machine.
	ctx := startBrowser(t, chrome, 1280, 800, 10*time.Minute)
	b := &browser{t: t, ctx: ctx, shots: shots}

	b.do(chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`#experiments button[data-file="retry-budget-storm.toml"]`)))
	b.wait(`document.querySelector("#run").disabled === false`)
	open(b, "retry-budget-storm.toml")
	b.wait(`!document.querySelector("#batch").hidden && !document.querySelector("#compare-row").hidden && document.querySelector("#sweep-row").hidden`)
	setReps(b, "#reps", "2")
	b.do(click("#compare"))
	b.waitFor(`document.querySelectorAll("#batch-out .verdicts tbody tr").length === 2`, 3*time.Minute)
	verdict := func(v string) string {
		return eval[string](b, `document.querySelector('#batch-out .verdicts tr[data-variant="`+v+`"] td.verdict').dataset.verdict`)
	}
	if got := verdict("base"); got != "recovered" {
		t.Errorf("base (retry budget): verdict %q, want recovered", got)
	}
	if got := verdict("no-budget"); got != "locked_in" {
		t.Errorf("no-budget: verdict %q, want locked_in", got)
	}
	b.wait(`document.querySelector('#batch-out img[data-file="compare-timeline.svg"]') !== null && document.querySelector("#batch-out .md table") !== null`)
	b.layout()
	b.labels()
	t.Logf("compare: %s", eval[string](b, `document.querySelector("#status").textContent`))
	b.shot("8-compare")
	b.part("#batch", "8-compare-panel")
	b.part("#batch-results", "8-compare-results")
	sharedComparison(b)

	// Stop a comparison mid-way: the buttons come back, nothing is kept.
	b.do(click("#compare"))
	b.wait(`document.querySelector("#batch-stop").disabled === false`)
	b.do(click("#batch-stop"))
	b.wait(`document.querySelector("#batch-progress-text").textContent === "stopped" && !document.querySelector("#compare").disabled`)

	// A sweep: the load curve, one line per variant. The grid is cut to
	// 4 loads (12 runs) in the editor, which keeps the test to seconds
	// on a loaded machine and checks that the page sweeps the edited file.
	open(b, "goodput-vs-load.toml")
	edit(b, "values = [500, 700, 900, 1000, 1100, 1300, 1600, 2000]", "values = [500, 900, 1100, 1600]")
	b.wait(`batch.info !== null && batch.info.sweep.cells === 12 && !document.querySelector("#sweep-row").hidden && document.querySelector("#sweep-reps").value === "1"`)
	b.do(click("#sweep"))
	b.waitFor(`document.querySelector('#batch-out img[data-file="sweep-goodput.svg"]') !== null`, 3*time.Minute)
	b.wait(`document.querySelector("#batch-title").textContent === "Sweep: goodput-vs-load"`)
	t.Logf("sweep: %s", eval[string](b, `document.querySelector("#status").textContent`))
	// Its share link carries the mode and the count (opening one is
	// sharedComparison's path, for the other mode).
	if got := eval[string](b, `writeFragment().then(decodeFragment).then((s) => s.mode + " x" + s.reps)`, chromedp.EvalAwaitPromise); got != "sweep x1" {
		t.Errorf("the sweep's share link carries %q, want mode sweep x1 replication", got)
	}
	b.shot("9-sweep")
	b.part("#batch-results", "9-sweep-results")

	// A phase diagram: two axes, the locked-in probability per cell.
	open(b, "metastable-phase.toml")
	edit(b, "values = [250, 300, 350, 400, 450, 500, 600, 700, 800]", "values = [300, 400, 600]")
	edit(b, `values = ["100ms", "250ms", "500ms", "1s", "2s", "4s"]`, `values = ["100ms", "1s"]`)
	b.wait(`batch.info !== null && batch.info.sweep.cells === 6`)
	b.do(click("#sweep"))
	b.waitFor(`document.querySelector('#batch-out img[data-file="phase-base.svg"]') !== null`, 3*time.Minute)
	t.Logf("phase sweep: %s", eval[string](b, `document.querySelector("#status").textContent`))
	b.part("#batch-results", "9-phase-results")

	// Over the page's budget: refused before any run, with the reason
	// (the whole grid, 54 cells, x 10000 replications).
	open(b, "metastable-phase.toml")
	b.wait(`batch.info.sweep.cells === 54`)
	setReps(b, "#sweep-reps", "10000")
	b.do(click("#sweep"))
	b.waitFor(`(() => { const p = document.querySelector('#batch-out p[data-refused="true"]'); return p !== null && p.textContent.includes("budget"); })()`, time.Minute)
	b.part("#workbench", "10-refused-panel")
	b.part("#batch-results", "10-refused")
}

// sharedComparison copies the share link of the comparison just shown,
// opens it in a fresh browser context (no cache, no storage, a new
// page) and checks that it comes back as a comparison of 2 replications
// and, run again, gives the identical compare.json and verdict table.
func sharedComparison(b *browser) {
	b.t.Helper()
	wantJSON := eval[string](b, `batch.last.files.find((f) => f.file === "compare.json").text`)
	wantTable := eval[string](b, `document.querySelector("#batch-out .verdicts").outerHTML`)
	b.do(click("#share"))
	b.wait(`location.hash.startsWith("#s=") && document.querySelector("#status").textContent.startsWith("Share link")`)
	link := eval[string](b, `location.href`)
	b.t.Logf("comparison's share link: %d characters; %s", len(link), eval[string](b, `document.querySelector("#status").textContent`))

	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
	defer cancel()
	f := &browser{t: b.t, ctx: ctx, shots: b.shots}
	f.do(chromedp.Navigate(link))
	// Restored, and started: the mode, the count, the file.
	f.waitFor(`typeof batch !== "undefined" && batch.info !== null && state.mode === "compare" && batch.op === "compare"`, 3*time.Minute)
	if got := eval[string](f, `document.querySelector("#reps").value`); got != "2" {
		b.t.Errorf("the shared comparison opened with %q replications, want 2", got)
	}
	if eval[bool](f, `document.querySelector("#compare-row").hidden || batch.info.name !== "retry-budget-storm"`) {
		b.t.Errorf("the shared comparison did not reopen retry-budget-storm's compare panel")
	}
	f.waitFor(`batch.last !== null`, 3*time.Minute)
	if got := eval[int](f, `batch.last.replications`); got != 2 {
		b.t.Errorf("the shared comparison ran %d replications, want 2", got)
	}
	if got := eval[string](f, `batch.last.files.find((f) => f.file === "compare.json").text`); got != wantJSON {
		b.t.Errorf("the shared link's compare.json differs from the comparison it shared (%d and %d bytes)", len(got), len(wantJSON))
	}
	if got := eval[string](f, `document.querySelector("#batch-out .verdicts").outerHTML`); got != wantTable {
		b.t.Errorf("the shared link's verdict table differs:\n got %s\nwant %s", got, wantTable)
	}
	b.t.Logf("shared comparison: %s; the shared compare.json had %d bytes", eval[string](f, `document.querySelector("#status").textContent`), len(wantJSON))
	f.shot("8-shared-comparison")
}

// open opens a bundled experiment from the catalogue and waits for its
// validation.
func open(b *browser, file string) {
	b.t.Helper()
	b.do(click(`#experiments button[data-file="` + file + `"]`))
	name := strings.TrimSuffix(file, ".toml")
	b.wait(`batch.info !== null && batch.info.name === "` + name + `" && document.querySelector("#problems li.ok") !== null`)
}

// edit replaces text in the editor as typing would, and waits for the
// validation to pass.
func edit(b *browser, from, to string) {
	b.t.Helper()
	js, _ := json.Marshal([]string{from, to})
	if !eval[bool](b, `(() => { const [from, to] = `+string(js)+`; const ta = document.querySelector("#toml");
		if (!ta.value.includes(from)) return false;
		ta.value = ta.value.replace(from, to);
		ta.dispatchEvent(new Event("input"));
		return true; })()`) {
		b.t.Fatalf("the editor has no %q", from)
	}
	b.wait(`document.querySelector("#problems li.ok") !== null && document.querySelector("#toml").value.includes(` + string(mustJSON(to)) + `)`)
}

func mustJSON(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}

// setReps types a replication count into a field.
func setReps(b *browser, sel, n string) {
	b.t.Helper()
	b.do(chromedp.SetValue(chromedp.CSS(sel), n))
	eval[bool](b, `document.querySelector("`+sel+`").dispatchEvent(new Event("input"))`)
}

// waitFor is wait with a longer timeout, for runs.
func (b *browser) waitFor(cond string, d time.Duration) {
	b.t.Helper()
	if _, err := chromedp.Run(b.ctx, chromedp.Poll[chromedp.Void](cond, chromedp.WithPollingTimeout(d))); err != nil {
		b.shot("failed")
		status, _ := chromedp.Run(b.ctx, chromedp.Text(chromedp.CSS(`#status`)))
		b.t.Fatalf("waiting for %s: %v (status: %q)", cond, err, status)
	}
}

// part writes a PNG screenshot of the element a CSS selector finds.
func (b *browser) part(sel, name string) {
	png, err := chromedp.Run(b.ctx, chromedp.Screenshot(chromedp.CSS(sel)))
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
