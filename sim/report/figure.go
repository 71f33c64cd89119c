package report

import (
	"errors"
	"fmt"
	"math"
)

// Default figure geometry and labels.
const (
	// DefaultWidth is the width of a Figure, in pixels, when Figure.Width is 0.
	DefaultWidth = 1200
	// DefaultHeight is the height of a Figure, in pixels, when Figure.Height is 0.
	DefaultHeight = 900
	// DefaultXLabel is the shared x-axis label when Figure.XLabel is empty.
	DefaultXLabel = "simulated time (s)"
	// DefaultStatesLabel names a panel's state strip when Panel.StatesLabel is empty.
	DefaultStatesLabel = "state"

	// MinSize and MaxSize bound Width and Height, in pixels.
	MinSize = 200
	MaxSize = 8000

	// MaxAbs bounds the magnitude of every finite value (x, y, span and
	// band ends, fixed axis ends, bar and heatmap values): beyond it the
	// axis arithmetic would overflow. Values on a log axis below MinLog
	// are drawn as gaps, like values <= 0.
	MaxAbs = 1e100
	MinLog = 1e-100
)

// Figure is a stack of time-series panels that share one x axis (seconds of
// simulated time), with fault windows shaded across every panel. It is plain
// data: build it from any source, then pass it to RenderPNG, RenderSVG or
// WriteFile. The zero values of Width, Height and XLabel select the defaults.
type Figure struct {
	// Title names the experiment and variant, e.g.
	// "checkout: recommendations slows to 5 s (retries x3, no breaker)".
	Title string
	// Subtitle is an optional second line (seed, replications, config hash).
	Subtitle string
	// XLabel labels the shared x axis, with its unit. Default DefaultXLabel.
	XLabel string
	// Panels are stacked top to bottom. At least one is required.
	Panels []Panel
	// Spans are fault windows, shaded across every panel and labelled at
	// the top of the first panel.
	Spans []Span
	// Marks are reference values of the x axis (a service's capacity on
	// a load axis), drawn as dashed vertical lines across every panel and
	// labelled at the top of the first panel.
	Marks []Mark
	// Width and Height are the output size in pixels (PNG) or the
	// equivalent size at 96 dpi (SVG). 0 selects DefaultWidth and
	// DefaultHeight; otherwise each must lie in [MinSize, MaxSize].
	Width, Height int
}

// Panel is one plot of the stack: a y axis and the lines drawn against it.
type Panel struct {
	// Title is a short name shown above the panel, e.g. "Goodput".
	Title string
	// YLabel labels the y axis with its unit, e.g. "req/s" or "p99 latency (ms)".
	YLabel string
	// Lines are drawn in order. A Label that appears in several panels keeps
	// the same colour in all of them.
	Lines []Line
	// YMin and YMax fix the y range; nil means "from the data" (rounded
	// outwards to a tick). Rates and counts usually want YMin = new(0.0).
	YMin, YMax *float64
	// LogY draws the y axis on a base-10 log scale (latency spanning
	// 20 ms to 5 s). Values <= 0 are then drawn as gaps. YMin, if set,
	// must be > 0.
	LogY bool
	// States, if any, are drawn as a strip of coloured bands under the
	// panel (e.g. a circuit breaker's closed / open / half-open).
	States []StateBand
	// StatesLabel names the strip. Default DefaultStatesLabel.
	StatesLabel string
	// Markers mark instants on the panel (see Marker), drawn over the
	// lines and named in the legend.
	Markers []Marker
}

// Line is one series. X must be finite and non-decreasing; Y may hold NaN,
// which leaves a gap in the line. X and Y must have the same length.
type Line struct {
	// Label is the legend entry.
	Label string
	// X holds instants in seconds of simulated time; Y the values.
	X, Y []float64
	// Dashed draws the line dashed (e.g. a baseline or a target).
	Dashed bool
	// Points marks every point with a dot: for lines through a few
	// measured points (a sweep), so that a straight segment across a
	// cliff is not read as measured.
	Points bool
	// Thin draws a thin, faint, solid line with no legend entry and no
	// direct label, under the other lines: one replication behind a
	// mean. It takes the colour of the panel's line with the same Label.
	Thin bool
}

// Mark is a reference value on the x axis, e.g. {1000, "capacity 1000 rps"}.
type Mark struct {
	// X is the value, in the units of the x axis.
	X float64
	// Label names it; drawn beside the line.
	Label string
}

// Span is a fault window [From, To), in seconds of simulated time.
type Span struct {
	From, To float64
	// Label describes the fault, e.g. "recommendations latency x250".
	Label string
}

// StateBand says that a state held over [From, To), in seconds.
type StateBand struct {
	From, To float64
	// State is the name of the state. "closed", "open" and "half-open"
	// get fixed colours; other names take palette colours in order of
	// first appearance.
	State string
}

// ErrInvalid is wrapped by every validation error.
var ErrInvalid = errors.New("invalid figure")

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

// size returns the figure size in pixels, applying defaults.
func size(w, h int) (int, int, error) {
	if w == 0 {
		w = DefaultWidth
	}
	if h == 0 {
		h = DefaultHeight
	}
	if w < MinSize || w > MaxSize || h < MinSize || h > MaxSize {
		return 0, 0, invalid("size %dx%d px outside [%d, %d]", w, h, MinSize, MaxSize)
	}
	return w, h, nil
}

// finite reports whether v is a usable number: not NaN, |v| <= MaxAbs.
func finite(v float64) bool { return v >= -MaxAbs && v <= MaxAbs }

// gapOrFinite reports whether v is NaN (a gap) or finite.
func gapOrFinite(v float64) bool { return math.IsNaN(v) || finite(v) }

// Validate reports the first problem that would stop f from rendering.
// The error wraps ErrInvalid.
func (f *Figure) Validate() error {
	if _, _, err := size(f.Width, f.Height); err != nil {
		return err
	}
	if len(f.Panels) == 0 {
		return invalid("no panels")
	}
	for i, s := range f.Spans {
		if !finite(s.From) || !finite(s.To) || s.From > s.To {
			return invalid("span %d %q: bad interval [%v, %v)", i, s.Label, s.From, s.To)
		}
	}
	for i, m := range f.Marks {
		if !finite(m.X) {
			return invalid("mark %d %q: X = %v is not finite", i, m.Label, m.X)
		}
	}
	for i := range f.Panels {
		if err := f.Panels[i].validate(); err != nil {
			return fmt.Errorf("panel %d %q: %w", i, f.Panels[i].Title, err)
		}
	}
	return nil
}

func (p *Panel) validate() error {
	if p.YMin != nil && !finite(*p.YMin) || p.YMax != nil && !finite(*p.YMax) {
		return invalid("YMin/YMax not finite")
	}
	if p.YMin != nil && p.YMax != nil && *p.YMin >= *p.YMax {
		return invalid("YMin %v >= YMax %v", *p.YMin, *p.YMax)
	}
	if p.LogY && (p.YMin != nil && *p.YMin < MinLog || p.YMax != nil && *p.YMax < MinLog) {
		return invalid("log axis needs YMin and YMax >= MinLog")
	}
	for i, l := range p.Lines {
		if len(l.X) != len(l.Y) {
			return invalid("line %d %q: len(X) = %d, len(Y) = %d", i, l.Label, len(l.X), len(l.Y))
		}
		prev := math.Inf(-1)
		for j, x := range l.X {
			if !finite(x) || x < prev {
				return invalid("line %d %q: X[%d] = %v is not finite (|x| <= MaxAbs) and non-decreasing", i, l.Label, j, x)
			}
			prev = x
		}
		for j, y := range l.Y {
			if !gapOrFinite(y) {
				return invalid("line %d %q: Y[%d] = %v is infinite or beyond MaxAbs (use NaN for a gap)", i, l.Label, j, y)
			}
		}
	}
	for i, s := range p.States {
		if !finite(s.From) || !finite(s.To) || s.From > s.To {
			return invalid("state band %d %q: bad interval [%v, %v)", i, s.State, s.From, s.To)
		}
	}
	for i, m := range p.Markers {
		if !finite(m.At) {
			return invalid("marker %d %q: instant %v not finite", i, m.Label, m.At)
		}
	}
	return nil
}
