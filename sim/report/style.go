package report

import (
	"image/color"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// okabeIto is the fixed line palette, in the order colours are handed out:
// the Okabe-Ito colour-blind-safe set (Okabe and Ito 2008, "Color Universal
// Design"), reordered for contrast on white, with yellow last. Never written.
var okabeIto = [8]color.RGBA{
	{0x00, 0x72, 0xB2, 0xFF}, // blue
	{0xD5, 0x5E, 0x00, 0xFF}, // vermillion
	{0x00, 0x9E, 0x73, 0xFF}, // bluish green
	{0xCC, 0x79, 0xA7, 0xFF}, // reddish purple
	{0xE6, 0x9F, 0x00, 0xFF}, // orange
	{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
	{0x00, 0x00, 0x00, 0xFF}, // black
	{0xF0, 0xE4, 0x42, 0xFF}, // yellow
}

// fixedStateColour returns the fixed colour of the usual circuit-breaker
// states: closed is green, open vermillion, half-open yellow; and of an
// alert's: inactive green, firing vermillion, pending yellow.
func fixedStateColour(state string) (color.RGBA, bool) {
	switch state {
	case "closed", "inactive":
		return okabeIto[2], true
	case "open", "firing":
		return okabeIto[1], true
	case "half-open", "pending":
		return okabeIto[7], true
	}
	return color.RGBA{}, false
}

var (
	spanFill  = color.RGBA{0xFB, 0xE5, 0xD6, 0xFF} // light vermillion tint
	spanText  = color.RGBA{0x9A, 0x3F, 0x00, 0xFF} // dark vermillion
	gridColor = color.RGBA{0xDD, 0xDD, 0xDD, 0xFF}
	axisColor = color.RGBA{0x44, 0x44, 0x44, 0xFF}
	subColor  = color.RGBA{0x55, 0x55, 0x55, 0xFF}
	missColor = color.RGBA{0xEE, 0xEE, 0xEE, 0xFF}
	markColor = color.RGBA{0x33, 0x33, 0x33, 0xFF} // reference lines (Mark) and their labels
)

// dpi is the resolution at which pixels map to vg lengths (points).
const dpi = 96

// px converts pixels to a vg length at dpi.
func px(n int) vg.Length { return vg.Length(n) * vg.Inch / dpi }

// theme holds the text and line sizes for one figure, scaled to its size.
type theme struct {
	scale                                float64
	raster                               bool // drawing to an image, not SVG
	title, subtitle, panel, label, tick  text.Style
	legend, small, smallBold             text.Style
	lineWidth, gridWidth, axisWidth, gap vg.Length
}

var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

func style(size float64, bold bool, c color.Color) text.Style {
	f := sans
	if bold {
		f.Weight = xfont.WeightBold
	}
	return text.Style{
		Color:   c,
		Font:    font.From(f, vg.Length(size)),
		XAlign:  draw.XLeft,
		YAlign:  draw.YBottom,
		Handler: plot.DefaultTextHandler,
	}
}

// newTheme scales the reference sizes (chosen for 1200 x 900 px, readable
// from the back of a room) by the figure size, within [0.6, 2.5].
func newTheme(wpx, hpx int, raster bool) theme {
	s := min(float64(wpx)/DefaultWidth, float64(hpx)/DefaultHeight)
	s = max(0.6, min(2.5, s))
	sz := func(pt float64) float64 { return pt * s }
	return theme{
		scale:     s,
		raster:    raster,
		title:     style(sz(19), true, color.Black),
		subtitle:  style(sz(13), false, subColor),
		panel:     style(sz(14), true, color.Black),
		label:     style(sz(13), false, color.Black),
		tick:      style(sz(12), false, axisColor),
		legend:    style(sz(12.5), false, color.Black),
		small:     style(sz(11.5), false, color.Black),
		smallBold: style(sz(11.5), true, color.Black),
		lineWidth: vg.Length(sz(2)),
		gridWidth: vg.Length(sz(0.75)),
		axisWidth: vg.Length(sz(1)),
		gap:       vg.Length(sz(8)),
	}
}

// textOn returns black or white, whichever reads better on c.
func textOn(c color.RGBA) color.Color {
	// Relative luminance with the sRGB coefficients of ITU-R BT.709.
	l := 0.2126*float64(c.R) + 0.7152*float64(c.G) + 0.0722*float64(c.B)
	if l > 140 {
		return color.Black
	}
	return color.White
}

// lineColours assigns a palette colour to every line of the figure. A
// label that appears in several panels keeps one colour throughout (so a
// variant can be followed from panel to panel); the other lines take, panel
// by panel, the first colours left free. Deterministic: it depends only on
// the order of panels and lines.
func lineColours(panels []Panel) [][]color.RGBA {
	var shared []string // labels in two or more panels, in order of first appearance
	for i, p := range panels {
		for _, l := range p.Lines {
			if l.Label == "" || contains(shared, l.Label) {
				continue
			}
			for _, q := range panels[i+1:] {
				if hasLabel(q.Lines, l.Label) {
					shared = append(shared, l.Label)
					break
				}
			}
		}
	}
	out := make([][]color.RGBA, len(panels))
	for i, p := range panels {
		var used []int
		for _, l := range p.Lines {
			for k, s := range shared {
				if s == l.Label {
					used = append(used, k%len(okabeIto))
				}
			}
		}
		next := 0
		out[i] = make([]color.RGBA, len(p.Lines))
		for j, l := range p.Lines {
			if l.Thin {
				continue // coloured below, after the line it follows
			}
			if k := index(shared, l.Label); k >= 0 {
				out[i][j] = okabeIto[k%len(okabeIto)]
				continue
			}
			// Next colour not taken by a shared label; once all are
			// taken, cycle through the whole palette.
			for tries := 0; tries < len(okabeIto) && containsInt(used, next%len(okabeIto)); tries++ {
				next++
			}
			out[i][j] = okabeIto[next%len(okabeIto)]
			used = append(used, next%len(okabeIto))
			next++
		}
		thinColours(p.Lines, out[i], shared)
	}
	return out
}

// thinColours gives each thin line of a panel the colour of the panel's
// first other line with its label, else its shared colour, else the
// first palette colour.
func thinColours(lines []Line, colours []color.RGBA, shared []string) {
	for j, l := range lines {
		if !l.Thin {
			continue
		}
		colours[j] = okabeIto[0]
		if k := index(shared, l.Label); k >= 0 {
			colours[j] = okabeIto[k%len(okabeIto)]
		}
		for m, o := range lines {
			if !o.Thin && o.Label == l.Label {
				colours[j] = colours[m]
				break
			}
		}
	}
}

func index(ss []string, s string) int {
	for i, v := range ss {
		if v == s {
			return i
		}
	}
	return -1
}

func contains(ss []string, s string) bool { return index(ss, s) >= 0 }

func containsInt(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func hasLabel(ls []Line, label string) bool {
	for _, l := range ls {
		if l.Label == label {
			return true
		}
	}
	return false
}
