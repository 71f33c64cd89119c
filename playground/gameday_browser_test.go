//go:build !js

package playground

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/ressim/ressim/internal/tooltest"
	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/output"
)

// TestBrowserGameDay plays the bundled retry-storm game day in headless
// Chromium through the page's controls, at a projector's 1280x720: it
// starts the room, runs the clock at 10x until an alert fires, adds api
// workers with a decoy's button, then cuts the retries with the attempts
// knob, ends the game and reads the score (mitigated by the knob); it
// downloads the file with the team's moves and runs it as ressim run does:
// the same summary.json, byte for byte, as the page's. The share link of
// the moves replays them to the same bytes and score. Screenshots of each
// step go to the artifacts folder. It skips without Chromium unless CI is
// set.
func TestBrowserGameDay(t *testing.T) {
	chrome := tooltest.Need(t, "chromium", "chromium-browser", "google-chrome")
	dir := site(t)
	shots := artifacts(t)
	url := serveSite(t, dir)
	ctx := startBrowser(t, chrome, 1280, 720, 6*time.Minute)
	b := &browser{t: t, ctx: ctx, shots: shots}

	const file = "gameday-retry-storm.toml"
	b.do(chromedp.EmulateViewport(1280, 720), chromedp.Navigate(url),
		chromedp.WaitVisible(chromedp.CSS(`#experiments button[data-file="`+file+`"]`)))
	b.wait(`document.querySelector("#run").disabled === false`)
	open(b, file)
	b.wait(`!document.querySelector("#gameday").hidden`)
	b.do(click("#gameday-start"))
	b.waitFor(`gd.last !== null && !gd.busy`, 2*time.Minute)
	if !eval[bool](b, `document.querySelector("#gd-runbook-body h1, #gd-runbook-body h2") !== null`) {
		t.Error("the runbook shows no heading")
	}
	if eval[bool](b, `getComputedStyle(document.querySelector("#workbench")).display !== "none"`) {
		t.Error("the editor, which holds the reference answer, is visible in the room")
	}
	b.gameLayout()
	b.viewShot("gameday-1-ready")

	// The clock at 10x until an alert fires.
	b.do(click(`input[name="gd-pace"][value="fast"]`))
	b.waitFor(`document.querySelector("#gd-alerts .alert.firing") !== null`, 2*time.Minute)
	detectedAt := eval[float64](b, `gd.clockMS`)
	b.viewShot("gameday-2-alert-firing")

	// A decoy first, with its button: more api workers.
	i := eval[int](b, `gd.info.game_day.moves.findIndex((m) => !m.knob && /workers/i.test(m.label))`)
	if i < 0 {
		t.Fatalf("no button adds workers: %v", eval[[]string](b, `gd.info.game_day.moves.map((m) => m.label)`))
	}
	b.do(click(`#gd-moves button[data-move="` + strconv.Itoa(i) + `"]`))
	b.waitFor(`gd.moves.length === 1 && !gd.busy && gd.last.file.includes("[[action]]")`, 2*time.Minute)
	at := eval[float64](b, `gd.moves[0].at_ms`)
	if at < detectedAt {
		t.Errorf("the move was recorded at %v ms, before the clock showed the alert (%v ms)", at, detectedAt)
	}
	b.waitFor(`gd.clockMS >= gd.moves[0].at_ms + 10000`, 2*time.Minute)

	// Then the answer, with the knob: the client's attempts turned to 1.
	pos := eval[int](b, `(() => { const idx = gd.info.game_day.moves.map((m, i) => [m, i]).filter(([m]) => m.knob === "Client retry attempts");
		return idx.findIndex(([m]) => m.value === "1"); })()`)
	if pos < 0 {
		t.Fatal("the game day has no attempts knob with a position at 1")
	}
	b.do(chromedp.SetValue(chromedp.CSS(`#gd-moves .gd-knob input`), strconv.Itoa(pos)))
	eval[bool](b, `document.querySelector("#gd-moves .gd-knob input").dispatchEvent(new Event("input"))`)
	if got := eval[string](b, `document.querySelector("#gd-moves .gd-knob button").textContent`); got != "Set 1" {
		t.Errorf("the knob's button says %q, want Set 1", got)
	}
	b.do(click(`#gd-moves .gd-knob button`))
	b.waitFor(`gd.moves.length === 2 && !gd.busy`, 2*time.Minute)
	if got := eval[string](b, `gd.info.game_day.moves[gd.moves[1].move].label`); got != "Client retry attempts = 1" {
		t.Errorf("the knob recorded %q", got)
	}
	b.waitFor(`gd.clockMS >= gd.moves[1].at_ms + 30000`, 2*time.Minute)
	b.viewShot("gameday-3-after-the-move")

	b.do(click("#gd-end"))
	b.waitFor(`gd.score !== null`, 3*time.Minute)
	b.viewShot("gameday-4-score")
	b.shot("gameday-4-score-page")
	if v := eval[string](b, `gd.score.verdict.team`); v != "recovered" {
		t.Errorf("cutting the retries: the team's run is %q, want recovered", v)
	}
	if eval[bool](b, `gd.score.detect_s == null || gd.score.mitigate_s == null`) {
		t.Errorf("the score lacks a time to detect or to mitigate: %s", eval[string](b, `JSON.stringify(gd.score)`))
	}
	// Mitigated by the second move, the knob, not the decoy before it.
	if d := eval[float64](b, `gd.score.mitigate_s - (gd.moves[1].at_ms / 1000 - gd.info.game_day.fault_start_s)`); d < -1e-9 || d > 1e-9 {
		t.Errorf("time to mitigate is %v s off the knob's move", d)
	}
	if n := eval[int](b, `gd.score.reference.length`); n == 0 {
		t.Error("the score reveals no reference answer")
	}

	// The download is the file with the moves, and the CLI's run of it
	// gives the page's summary.json byte for byte.
	text := b.download(`#gd-downloads a[download$=".toml"]`)
	if text != eval[string](b, `gd.last.file`) {
		t.Fatal("the downloaded file is not the file the page ran")
	}
	if err := os.WriteFile(filepath.Join(shots, "our-moves.toml"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	want := eval[string](b, `gd.last.summary`)
	if got := cliSummary(t, text); got != want {
		t.Errorf("ressim run of the downloaded file gives a summary.json (%d bytes) that differs from the page's (%d bytes)", len(got), len(want))
	}
	if !strings.Contains(text, "[[action]]") {
		t.Error("the downloaded file has no [[action]] for the move")
	}

	// The share link replays the moves: same bytes, same score.
	score := eval[string](b, `JSON.stringify(gd.score)`)
	link := eval[string](b, `encodeFragment(gameShare())`, chromedp.EvalAwaitPromise)
	b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(link))
	b.waitFor(`typeof gd !== "undefined" && gd.score !== null`, 3*time.Minute)
	if got := eval[string](b, `gd.last.summary`); got != want {
		t.Error("the shared game's summary.json differs from the game it shared")
	}
	if got := eval[string](b, `JSON.stringify(gd.score)`); got != score {
		t.Errorf("the shared game's score differs:\n%s\n%s", got, score)
	}
	b.viewShot("gameday-5-shared")
}

// cliSummary runs text as ressim run does (its own Execute, into a
// folder) and returns summary.json.
func cliSummary(t *testing.T, text string) string {
	t.Helper()
	exp, err := experiment.Parse("our-moves.toml", []byte(text))
	if err != nil {
		t.Fatalf("the downloaded file does not parse: %v", err)
	}
	out := t.TempDir()
	if _, err := run.Execute(exp, run.Options{}, output.NewFolder(out, false)); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, run.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// gameLayout checks the room at the current viewport: the clock, chart,
// alerts, moves and runbook visible, nothing wider than the viewport.
func (b *browser) gameLayout() {
	b.t.Helper()
	bad := eval[[]string](b, `(() => {
		const bad = [];
		for (const sel of ["#gd-clock", "#gd-chart svg", "#gd-moves button", "#gd-runbook-body", "#gd-end"]) {
			const el = document.querySelector(sel);
			const r = el && el.getBoundingClientRect();
			if (!r || r.width === 0 || r.height === 0) bad.push(sel + " not visible");
		}
		if (document.documentElement.scrollWidth > window.innerWidth + 1)
			bad.push("page wider than the viewport: " + document.documentElement.scrollWidth + " > " + window.innerWidth);
		return bad; })()`)
	for _, s := range bad {
		b.t.Error("game-day layout: " + s)
	}
}

// download clicks the link sel as a user would, lets Chromium save the
// file into a temporary folder, and returns its text once Chromium says
// the download completed.
func (b *browser) download(sel string) string {
	b.t.Helper()
	dir := b.t.TempDir()
	done := make(chan string, 1)
	if err := chromedp.ListenBrowser(b.ctx, func(ev any) {
		if e, ok := ev.(*cdpbrowser.EventDownloadProgress); ok && e.State == cdpbrowser.DownloadProgressStateCompleted {
			select {
			case done <- e.GUID:
			default:
			}
		}
	}); err != nil {
		b.t.Fatal(err)
	}
	on := true
	if _, err := chromedp.CallBrowser(b.ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: dir, EventsEnabled: &on}); err != nil {
		b.t.Fatalf("download behaviour: %v", err)
	}
	b.do(click(sel))
	var guid string
	select {
	case guid = <-done:
	case <-b.ctx.Done():
		b.t.Fatalf("download of %s: %v", sel, b.ctx.Err())
	}
	text, err := os.ReadFile(filepath.Join(dir, guid))
	if err != nil {
		b.t.Fatal(err)
	}
	return string(text)
}
