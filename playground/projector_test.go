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

// TestBrowserProjector checks the page as a room sees it on a projector,
// 1280x720: it opens the retry-budget storm, runs it, then compares its
// variants (2 replications), and after each answer checks that only that
// answer's result is on the page (no stale result above or below it),
// that the result's top was scrolled into the viewport, that nothing in
// it is clipped (no box whose content is cut off or sticks out of the
// card, no image wider than its container, no text of a figure outside
// the figure) and that no verdict shows as its raw snake_case key.
// Screenshots of the viewport go to the artifacts folder
// (projector-run.png, projector-compare.png).
func TestBrowserProjector(t *testing.T) {
	chrome := tooltest.Need(t, "chromium", "chromium-browser", "google-chrome")
	dir := site(t)
	shots := artifacts(t)
	url := serveSite(t, dir)

	ctx := startBrowser(t, chrome, 1280, 720, 8*time.Minute)
	b := &browser{t: t, ctx: ctx, shots: shots, verdicts: verdictKeys(t)}

	b.do(chromedp.EmulateViewport(1280, 720), chromedp.Navigate(url),
		chromedp.WaitVisible(chromedp.CSS(`#experiments button[data-file="retry-budget-storm.toml"]`)))
	b.wait(`document.querySelector("#run").disabled === false`)
	open(b, "retry-budget-storm.toml")
	// A favicon in the page (an SVG data URL: no request for
	// /favicon.ico, which the site does not have).
	if icon := eval[string](b, `document.querySelector('link[rel="icon"]')?.href || ""`); !strings.HasPrefix(icon, "data:image/svg+xml,") {
		t.Errorf("the page has no favicon (link rel=icon: %q)", icon)
	}

	// A single run.
	b.do(click("#run"))
	b.waitFor(`document.querySelector("#current .verdict") !== null && document.querySelector("#current .downloads") !== null`, 3*time.Minute)
	b.projector("run")

	// Then a comparison: its answer replaces the run's.
	setReps(b, "#reps", "2")
	b.do(click("#compare"))
	b.waitFor(`document.querySelectorAll("#batch-out .verdicts tbody tr").length === 2 && document.querySelector("#batch-out .figures img") !== null`, 3*time.Minute)
	b.projector("compare")

	// And a run again: the comparison goes.
	b.do(click("#run"))
	b.waitFor(`document.querySelector("#current .verdict") !== null && document.querySelector("#current .downloads") !== null`, 3*time.Minute)
	b.projector("run-again")
}

// projector checks the result just shown at the current viewport (see
// TestBrowserProjector) and saves a screenshot of the viewport as
// projector-<name>.png.
func (b *browser) projector(name string) {
	b.t.Helper()
	// The result cards on the page: the visible .result boxes with
	// something in them.
	const cards = `[...document.querySelectorAll(".result")].filter((el) => el.offsetParent !== null && el.getBoundingClientRect().height > 0)`
	// Its top is scrolled into the viewport when it arrives.
	inView := `(() => { const c = ` + cards + `; if (c.length === 0) return false;
		const r = c[0].closest("section").getBoundingClientRect();
		return r.top >= -1 && r.top < window.innerHeight / 2; })()`
	// Wait for the images to be decoded, so that their size is final.
	b.waitFor(`[...document.querySelectorAll(".result img")].every((img) => img.complete && img.naturalWidth > 0)`, time.Minute)
	if _, err := chromedp.Run(b.ctx, chromedp.Poll[chromedp.Void](inView, chromedp.WithPollingTimeout(5*time.Second))); err != nil {
		top := eval[float64](b, `(() => { const c = `+cards+`; return c.length ? c[0].closest("section").getBoundingClientRect().top : -1; })()`)
		b.t.Errorf("%s: the result is not scrolled into view at 1280x720: its section's top is at %.0f px of %d", name, top, 720)
	}
	b.viewShot("projector-" + name)
	for _, sec := range eval[[]string](b, cards+`.map((el) => "#" + el.closest("section").id)`) {
		b.part(sec, "projector-"+name+"-"+sec[1:])
	}

	n := eval[[]string](b, cards+`.map((el) => el.id || el.closest("section").id)`)
	if len(n) != 1 {
		b.t.Errorf("%s: %d result cards on the page (%s), want 1: a stale result stays next to the new one", name, len(n), strings.Join(n, ", "))
	}
	// Clipped or overflowing boxes, and images wider than their container.
	clipped := eval[[]string](b, `(() => {
		const bad = [];
		const what = (el) => el.tagName.toLowerCase() + (el.className && typeof el.className === "string" ? "." + el.className.split(" ").join(".") : "") + ' "' + (el.textContent || el.alt || "").trim().slice(0, 40) + '"';
		for (const card of `+cards+`) {
			const cr = card.getBoundingClientRect();
			for (const el of card.querySelectorAll("*")) {
				const cs = getComputedStyle(el);
				if (cs.display === "none" || cs.visibility === "hidden" || el.closest(".visually-hidden")) continue;
				const r = el.getBoundingClientRect();
				if (r.width === 0 && r.height === 0) continue;
				if (el.scrollWidth > el.clientWidth + 1 && cs.overflowX !== "visible")
					bad.push(what(el) + ": content " + el.scrollWidth + " px wide in a box of " + el.clientWidth + " px (overflow " + cs.overflowX + ")");
				if (el.scrollHeight > el.clientHeight + 1 && cs.overflowY !== "visible" && el.tagName !== "TEXTAREA")
					bad.push(what(el) + ": content " + el.scrollHeight + " px high in a box of " + el.clientHeight + " px (overflow " + cs.overflowY + ")");
				if (r.right > cr.right + 1 || r.left < cr.left - 1)
					bad.push(what(el) + ": sticks out of the result card (" + Math.round(r.left) + " to " + Math.round(r.right) + " px, the card " + Math.round(cr.left) + " to " + Math.round(cr.right) + ")");
				if (el.tagName === "IMG" && el.parentElement && r.width > el.parentElement.clientWidth + 1)
					bad.push(what(el) + ": image " + Math.round(r.width) + " px wide in a container of " + el.parentElement.clientWidth + " px");
				// A figure shrunk below half its drawn size: its titles and
				// axis labels are too small to read on a projector.
				if (el.tagName === "IMG" && el.naturalWidth > 0 && r.width < 0.5 * el.naturalWidth)
					bad.push(what(el) + ": figure shrunk to " + Math.round(r.width) + " px of its " + el.naturalWidth + " px, its text unreadable");
			}
		}
		return bad; })()`)
	for _, s := range clipped {
		b.t.Errorf("%s: clipped: %s", name, s)
	}
	// The text of the figures (SVG, shown as images): every text element
	// inside its figure's drawing area.
	cut := eval[[]string](b, `(() => {
		const bad = [];
		for (const card of `+cards+`) {
			for (const img of card.querySelectorAll("img")) {
				// The page's CSP keeps fetch off blob: URLs: the SVG
				// from the answer the image was made from.
				const figs = [...(state.last?.figures || []), ...(batch.last?.figures || [])];
				const f = figs.find((f) => f.file === img.dataset.file);
				const text = f ? f.svg : "";
				if (!text.includes("<svg")) continue;
				const box = document.createElement("div");
				box.style.cssText = "position:absolute;left:0;top:0;visibility:hidden;";
				box.innerHTML = text.slice(text.indexOf("<svg"));
				document.body.append(box);
				const svg = box.querySelector("svg");
				const sr = svg.getBoundingClientRect();
				for (const t of svg.querySelectorAll("text")) {
					const r = t.getBoundingClientRect();
					if (!t.textContent.trim() || r.width === 0) continue;
					if (r.left < sr.left - 1 || r.right > sr.right + 1 || r.top < sr.top - 1 || r.bottom > sr.bottom + 1)
						bad.push(img.dataset.file + ': "' + t.textContent.trim().slice(0, 50) + '" outside the figure');
				}
				box.remove();
			}
		}
		return bad; })()`)
	for _, s := range cut {
		b.t.Errorf("%s: figure text clipped: %s", name, s)
	}
	// No verdict key (locked_in, no_baseline...) in the text shown, and
	// no snake_case word at all in the result, less file names (download
	// links, commands) and the editor's TOML.
	raw := eval[[]string](b, `(() => {
		const keys = new Set(`+string(mustJSONValue(b.verdicts))+`);
		const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
		const words = new Set();
		for (let n = w.nextNode(); n; n = w.nextNode()) {
			const el = n.parentElement;
			if (el.closest("a[download], code, textarea, script, [hidden], .visually-hidden, #marks") || el.offsetParent === null) continue;
			const inResult = el.closest(".result") !== null;
			for (const m of n.textContent.match(/\b[a-z]+(_[a-z]+)+\b/g) || [])
				if (inResult || keys.has(m)) words.add(m);
		}
		return [...words]; })()`)
	if len(raw) > 0 {
		b.t.Errorf("%s: raw snake_case words on the page: %s", name, strings.Join(raw, ", "))
	}
}

func mustJSONValue(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// viewShot writes a PNG screenshot of the viewport (what the room sees).
func (b *browser) viewShot(name string) {
	png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
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
