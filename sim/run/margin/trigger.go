package margin

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/ressim/ressim/sim/topology"
)

// What a margin search varies (Options.By).
const (
	ByDuration = "duration" // the fault's duration, seconds
	BySize     = "size"     // a latency or load fault's multiply, an error fault's rate
	ByLoad     = "load"     // the open-loop clients' offered load, requests per second
)

// ErrSetup marks a search that cannot be set up from the file and the
// options: no such fault, several faults and none chosen, a trigger the
// fault does not have.
var ErrSetup = errors.New("cannot search")

// Trigger is what a search varies, on which fault, and over what range.
type Trigger struct {
	// By is ByDuration, BySize or ByLoad.
	By string
	// Fault is the index of the judged fault in the model's faults;
	// Label its report label in the file.
	Fault int
	Label string
	// File is the trigger's value in the file.
	File float64
	// Log says the fit is on the logarithm of the trigger.
	Log bool
	// Min and Max bound every trigger tried; ScanLo and ScanHi bound the
	// first scan.
	Min, Max, ScanLo, ScanHi float64
	// Key is margin.json's name of the threshold; Axis the figure's axis
	// label; Unit the unit printed after a value ("s", "x", "rps", "").
	Key, Axis, Unit string

	base topology.Config
}

// NewTrigger picks the fault labelled label (every fault's report label,
// as [[expect]] fault names it; "" for the model's only fault) and what
// to vary. Errors wrap ErrSetup.
func NewTrigger(cfg topology.Config, label, by string) (*Trigger, error) {
	var labels []string
	idx := -1
	for i, f := range cfg.Faults {
		l := f.ReportLabel()
		labels = append(labels, fmt.Sprintf("%q", l))
		if l == label && idx < 0 {
			idx = i
		}
	}
	switch {
	case len(cfg.Faults) == 0:
		return nil, fmt.Errorf("%w: the file has no [[fault]]: margin searches for the smallest trigger that locks the system in", ErrSetup)
	case label == "" && len(cfg.Faults) > 1:
		return nil, fmt.Errorf("%w: the file has %d faults: choose one with --fault (labels: %s)", ErrSetup, len(cfg.Faults), strings.Join(labels, ", "))
	case label == "":
		idx, label = 0, cfg.Faults[0].ReportLabel()
	case idx < 0:
		return nil, fmt.Errorf("%w: no [[fault]] labelled %q (labels: %s)", ErrSetup, label, strings.Join(labels, ", "))
	}
	f := cfg.Faults[idx]
	t := &Trigger{By: by, Fault: idx, Label: label, base: cfg, Log: true}
	switch by {
	case ByDuration:
		if f.Kind == topology.CacheFlushFault {
			return nil, fmt.Errorf("%w: fault %q is a cache flush, an instant: it has no duration to vary (try --by load)", ErrSetup, label)
		}
		rest := (cfg.Duration - f.Start).Seconds()
		t.File = (f.End - f.Start).Seconds()
		t.Max = math.Max(t.File, rest/2)
		t.Min = t.File / 4096
		t.ScanLo, t.ScanHi = t.File/256, t.File
		t.Key, t.Axis, t.Unit = "threshold_duration_s", "fault duration (s, log scale)", "s"
	case BySize:
		switch f.Kind {
		case topology.LatencyFault, topology.LoadFault:
			t.File = f.Multiply
			if !(t.File > 1) {
				return nil, fmt.Errorf("%w: fault %q multiplies by %g: --by size searches multipliers above 1", ErrSetup, label, t.File)
			}
			t.Min, t.Max = 1+(t.File-1)/1024, 1e6
			t.ScanLo, t.ScanHi = 1+(t.File-1)/16, t.File
			t.Key, t.Axis, t.Unit = "threshold_size", f.Kind.String()+" fault's multiply (x, log scale)", "x"
		case topology.ErrorFault:
			t.File = f.Rate
			if !(t.File > 0) {
				return nil, fmt.Errorf("%w: fault %q has an error rate of 0: --by size searches rates above 0", ErrSetup, label)
			}
			t.Min, t.Max = t.File/4096, 1
			t.ScanLo, t.ScanHi = t.File/64, t.File
			t.Key, t.Axis, t.Unit = "threshold_size", "error fault's rate (share of responses, log scale)", ""
		default:
			return nil, fmt.Errorf("%w: fault %q is a %s fault: --by size varies a latency or load fault's multiply or an error fault's rate", ErrSetup, label, f.Kind)
		}
	case ByLoad:
		t.Log = false
		for _, c := range cfg.Clients {
			if c.Users == 0 && len(c.Schedule) == 0 {
				t.File += c.Rate
			}
		}
		if !(t.File > 0) {
			return nil, fmt.Errorf("%w: --by load scales the open-loop clients' rate, and the file has no open-loop client with a constant rate", ErrSetup)
		}
		t.Min, t.Max = t.File/64, 4*t.File
		t.ScanLo, t.ScanHi = t.File/4, t.File
		t.Key, t.Axis, t.Unit = "threshold_load_rps", "offered load (requests/s)", "rps"
	default:
		return nil, fmt.Errorf("%w: --by %q: want duration, size or load", ErrSetup, by)
	}
	return t, nil
}

// G is trigger x on the fitting scale.
func (t *Trigger) G(x float64) float64 {
	if t.Log {
		return math.Log(x)
	}
	return x
}

// X is the trigger at g on the fitting scale.
func (t *Trigger) X(g float64) float64 {
	if t.Log {
		return math.Exp(g)
	}
	return g
}

// Snap is x as the model runs it: a duration rounded to the nanosecond.
func (t *Trigger) Snap(x float64) float64 {
	if t.By == ByDuration {
		return math.Round(x*1e9) / 1e9
	}
	return x
}

// Model is the file's model with the trigger at x (seed unchanged). It
// copies what it changes: the file's model is never written.
func (t *Trigger) Model(x float64) topology.Config {
	cfg := t.base
	cfg.Faults = slices.Clone(cfg.Faults)
	f := &cfg.Faults[t.Fault]
	if f.Label == "" {
		f.Label = t.Label // keep the file's name for the fault whatever its size
	}
	switch t.By {
	case ByDuration:
		f.End = f.Start + time.Duration(math.Round(x*1e9))
	case BySize:
		if f.Kind == topology.ErrorFault {
			f.Rate = x
		} else {
			f.Multiply = x
		}
	case ByLoad:
		s := x / t.File
		cfg.Clients = slices.Clone(cfg.Clients)
		for i := range cfg.Clients {
			c := &cfg.Clients[i]
			if c.Users > 0 {
				continue
			}
			c.Rate *= s
			if len(c.Schedule) > 0 {
				c.Schedule = slices.Clone(c.Schedule)
				for j := range c.Schedule {
					c.Schedule[j].Rate *= s
				}
			}
		}
	}
	return cfg
}

// Format writes trigger x with its unit: "112ms", "x2.5", "640 rps".
func (t *Trigger) Format(x float64) string {
	switch t.Unit {
	case "s":
		return time.Duration(math.Round(x * 1e9)).Round(time.Duration(math.Max(1, math.Pow(10, math.Floor(math.Log10(x*1e9))-2)))).String()
	case "x":
		return "x" + fmt.Sprintf("%.3g", x)
	case "rps":
		return fmt.Sprintf("%.4g rps", x)
	}
	return fmt.Sprintf("%.3g", x)
}
