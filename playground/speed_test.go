//go:build !js

package playground

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/ressim/ressim/internal/tooltest"
)

// stages are the marks the page and its worker put on the page's
// performance timeline while it loads and runs the retry storm, in the
// order they happen, each with what ends there. The worker's marks
// (go-*, run-*) are moved to the page's clock by app.js.
var stages = []struct{ mark, what string }{
	{"wasm-fetched", "fetch main.wasm (navigation to its last byte)"},
	{"wasm-compiled", "compile main.wasm (streaming: overlaps the fetch)"},
	{"go-start", "hand the module to the worker"},
	{"go-ready", "instantiate, Go runtime and package init"},
	{"listed", "catalogue.json shown (from the start: independent of main.wasm)"},
	{"validated", "validate the retry storm"},
	{"run-click", "until Run is clicked"},
	{"run-parsed", "parse the file for the run"},
	{"run-live-1", "simulate to 20 % (2 of 10 minutes) and draw the live overview"},
	{"live-figure-inserted", "post it to the page, insert the live <img>"},
	{"live-figure-decoded", "decode the live SVG (the live figure is shown)"},
	{"run-live-2", "simulate to 50 % and draw the live overview again"},
	{"run-simulated", "simulate the rest (10 simulated minutes in all)"},
	{"run-figure-1", "draw overview.svg"},
	{"first-figure-inserted", "post it to the page, insert the <img>"},
	{"run-summary", "summary.json"},
	{"first-figure-decoded", "decode the SVG (the figure is shown)"},
	{"run-figure-2", "draw the second figure"},
	{"result-rendered", "answer, verdict, table and all figures shown"},
}

// seen are the marks the test itself puts, for any version of the page.
var seen = []struct{ mark, what string }{
	{"seen-live", "the live overview's <img> is in the page"},
	{"seen-figure", "the first figure's <img> is in the page"},
	{"seen-verdict", "the verdict is in the page"},
}

// readMarks returns the first time (ms since navigation) of every mark on
// the page's timeline, and wasm-fetched from main.wasm's resource timing.
const readMarks = `(() => {
	const t = {};
	for (const m of performance.getEntriesByType("mark")) if (!(m.name in t)) t[m.name] = m.startTime;
	const r = performance.getEntriesByType("resource").find((e) => e.name.endsWith("/main.wasm"));
	if (r) t["wasm-fetched"] = r.responseEnd;
	return t; })()`

// stageTable formats marks as one line per stage, in the order they
// happened: its end (ms since navigation), its duration (from the
// previous stage's end) and what it is; stages without a mark are left
// out. The test's own marks (seen) follow.
func stageTable(marks map[string]float64) string {
	type row struct {
		mark, what string
		t          float64
	}
	var rows []row
	for _, s := range stages {
		if t, ok := marks[s.mark]; ok {
			rows = append(rows, row{s.mark, s.what, t})
		}
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].t < rows[j].t })
	var b strings.Builder
	prev := 0.0
	for _, r := range rows {
		fmt.Fprintf(&b, "%-22s %7.0f ms  %+7.0f ms  %s\n", r.mark, r.t, r.t-prev, r.what)
		prev = r.t
	}
	for _, s := range seen {
		if t, ok := marks[s.mark]; ok {
			fmt.Fprintf(&b, "%-22s %7.0f ms  %7s     %s\n", s.mark, t, "", s.what)
		}
	}
	return b.String()
}

// TestPlaygroundSpeed loads the page RESSIM_PLAYGROUND_SPEED times (skips
// without it), each in a fresh browser context (empty HTTP and code
// caches, as a first visit), clicks Run as soon as it is enabled, and
// reports the median of every stage mark up to the retry storm's result;
// speed.txt in the artifacts folder keeps the table and every load.
// docs/playground.md#where-the-time-goes records its numbers.
func TestPlaygroundSpeed(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("RESSIM_PLAYGROUND_SPEED"))
	if n <= 0 {
		t.Skip("set RESSIM_PLAYGROUND_SPEED to the number of page loads to time")
	}
	chrome := tooltest.Need(t, "chromium", "chromium-browser", "google-chrome")
	url := serveSite(t, site(t))
	// Each load takes well under a minute; two each leave room for a slow machine.
	bctx := startBrowser(t, chrome, 1280, 800, time.Duration(2*n)*time.Minute)
	if err := chromedp.Do(bctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	all := map[string][]float64{}
	var log strings.Builder
	for i := 0; i < n; i++ {
		marks := loadAndRun(t, bctx, url)
		fmt.Fprintf(&log, "load %d\n%s\n", i+1, stageTable(marks))
		for k, v := range marks {
			all[k] = append(all[k], v)
		}
	}
	med := map[string]float64{}
	for k, v := range all {
		sort.Float64s(v)
		med[k] = v[len(v)/2]
	}
	first := all["seen-figure"]
	summary := fmt.Sprintf("median of %d loads (ms since navigation; duration since the previous stage)\n%s\n"+
		"live overview in the page, each load (sorted): %.0f ms\nfirst final figure in the page, each load (sorted): %.0f ms\n",
		n, stageTable(med), all["seen-live"], first)
	t.Log("\n" + summary)
	writeFile(t, artifacts(t), "speed.txt", summary+"\n"+log.String())
	if len(first) != n {
		t.Errorf("seen-figure marked in %d of %d loads", len(first), n)
	}
}

// loadAndRun opens the page in a new browser context, clicks Run (from
// inside the page, so the test adds no latency) as soon as the retry
// storm is validated, and returns the marks once the result is shown.
func loadAndRun(t *testing.T, bctx context.Context, url string) map[string]float64 {
	t.Helper()
	ctx, cancel := chromedp.NewContext(bctx, chromedp.WithNewBrowserContext())
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 120*time.Second)
	defer cancel()
	// The observer marks what any version of the page shows (the stage
	// marks need this version's app.js): the first figure's <img> in the
	// current result, and the verdict.
	clickWhenReady := `new Promise((done) => {
		new MutationObserver((_, obs) => {
			if (!performance.getEntriesByName("seen-live").length && document.querySelector("#current .live img")) performance.mark("seen-live");
			if (!performance.getEntriesByName("seen-figure").length && document.querySelector("#current .figures img")) performance.mark("seen-figure");
			if (document.querySelector("#current .verdict")) { performance.mark("seen-verdict"); obs.disconnect(); }
		}).observe(document.querySelector("#current"), { childList: true, subtree: true });
		const f = () => {
		const run = document.querySelector("#run");
		if (run && !run.disabled) { run.click(); done(true); } else setTimeout(f, 2); }; f(); })`
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](clickWhenReady, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`performance.getEntriesByName("seen-verdict").length > 0`,
		chromedp.WithPollingTimeout(100*time.Second))); err != nil {
		t.Fatal(err)
	}
	marks, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]float64](readMarks))
	if err != nil {
		t.Fatal(err)
	}
	return marks
}

func writeFile(t *testing.T, dir, name, s string) {
	t.Helper()
	if err := os.WriteFile(dir+"/"+name, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
