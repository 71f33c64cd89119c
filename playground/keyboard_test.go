//go:build !js

package playground

import (
	"context"
	"fmt"
	"strings"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// keyboard drives the main flow in a fresh page with the keyboard only:
// Tab to an experiment and open it with Enter, open the retry storm with
// Space, switch the retry budget knob on with Space, Run with Enter, Stop
// with Enter (the focus moves from Run to Stop and back), Run again, and
// pin the result with Enter. Every element Tab reaches must show its
// focus (:focus-visible with an outline or a shadow); the order Tab went
// is logged.
func (b *browser) keyboard(url string) {
	b.t.Helper()
	b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(url))
	b.wait(`document.querySelector("#run").disabled === false`)
	opened := `document.querySelector('#experiments button[data-file="%s"]').getAttribute("aria-current") === "true"`

	b.tabTo(`#experiments button[data-file="codel-lifo.toml"]`)
	b.key(kb.Enter)
	b.wait(fmt.Sprintf(opened, "codel-lifo.toml"))
	b.tabTo(`#experiments button[data-file="metastable-retry-storm.toml"]`)
	b.key(" ")
	b.wait(fmt.Sprintf(opened, "metastable-retry-storm.toml") + ` && document.querySelector("#knob-budget") !== null`)
	b.tabTo("#knob-budget")
	b.key(" ")
	b.wait(`document.querySelector("#knob-budget").checked`)

	b.tabTo("#run")
	b.key(kb.Enter)
	b.wait(`!document.querySelector("#stop").disabled && document.activeElement.id === "stop"`)
	b.key(kb.Enter)
	b.wait(`document.querySelector("#progress-text").textContent === "stopped" && document.activeElement.id === "run"`)
	b.key(kb.Enter)
	b.wait(`document.querySelector("#current .verdict") !== null && document.querySelector("#current .verdict")?.dataset.verdict === "recovered"`)
	b.tabTo("#pin")
	b.key(kb.Enter)
	b.wait(`!document.querySelector("#pinned").hidden && document.querySelector("#pinned .verdict")?.dataset.verdict === "recovered" && document.activeElement.id === "unpin"`)
	b.shot("8-keyboard-pinned")
	b.t.Logf("Tab order: %s", strings.Join(b.tabbed, " > "))
}

// tabTo presses Tab until the element sel finds has the focus, checking
// on the way that each focused element shows it.
func (b *browser) tabTo(sel string) {
	b.t.Helper()
	for range 80 {
		b.key(kb.Tab)
		got := eval[[]string](b, fmt.Sprintf(`(() => {
			const el = document.activeElement, cs = getComputedStyle(el);
			const shown = el.matches(":focus-visible") &&
				((cs.outlineStyle !== "none" && parseFloat(cs.outlineWidth) > 0) || cs.boxShadow !== "none");
			const name = el.id ? "#" + el.id : el.dataset.file || el.tagName.toLowerCase() + ":" + el.textContent.trim().slice(0, 20);
			return [name, String(shown), String(el.matches(%q))]; })()`, sel))
		b.tabbed = append(b.tabbed, got[0])
		if got[1] != "true" {
			b.t.Errorf("focus not visible on %s", got[0])
		}
		if got[2] == "true" {
			return
		}
	}
	b.shot("failed")
	b.t.Fatalf("Tab did not reach %s in 80 presses: %s", sel, strings.Join(b.tabbed, " > "))
}

// key sends one key press to the focused element.
func (b *browser) key(k string) {
	b.t.Helper()
	b.do(chromedp.KeyEvent(k))
}

// focusable are the roles of the page's controls.
var focusable = map[string]bool{"button": true, "checkbox": true, "slider": true, "combobox": true,
	"textbox": true, "spinbutton": true, "link": true, "listbox": true, "radio": true, "switch": true, "menuitem": true}

// axNames checks that Chromium's accessibility tree gives every control
// a name (the accessible name computation, not just a label element).
func (b *browser) axNames() {
	b.t.Helper()
	nodes, err := chromedp.Run(b.ctx, func(ctx context.Context, t *chromedp.Target) ([]*accessibility.Node, error) {
		r, err := cdp.Call(ctx, t, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
		return r.Nodes, err
	})
	if err != nil {
		b.t.Fatalf("accessibility tree: %v", err)
	}
	controls := 0
	for _, n := range nodes {
		if n.Ignored || n.Role == nil || !focusable[strings.Trim(string(n.Role.Value), `"`)] {
			continue
		}
		controls++
		if n.Name == nil || strings.Trim(string(n.Name.Value), `" `) == "" {
			b.t.Errorf("a %s without an accessible name (DOM node %d)", n.Role.Value, n.BackendDOMNodeID)
		}
	}
	if controls < 10 {
		b.t.Errorf("the accessibility tree lists %d controls; want the page's buttons, knobs and editor", controls)
	}
}
