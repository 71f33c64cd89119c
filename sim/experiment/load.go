package experiment

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/ressim/ressim/internal/input"
	"github.com/ressim/ressim/sim/topology"
)

// SchemaVersion is the experiment-file schema this version of ressim reads.
const SchemaVersion = 1

// MaxFileSize bounds the size of an experiment file (1 MiB).
const MaxFileSize = 1 << 20

// The values of [experiment].compare_series (and compare --series): every
// replication's time series, replication 0's of each variant, or none.
const (
	SeriesAll   = "all"
	SeriesFirst = "first"
	SeriesNone  = "none"
)

// SeriesModes are the compare_series values, in documentation order.
var SeriesModes = []string{SeriesAll, SeriesFirst, SeriesNone}

// MaxReplications bounds [experiment].replications.
const MaxReplications = 10000

// MaxVariants bounds the number of [[variant]] blocks.
const MaxVariants = 100

// Experiment is a validated experiment file.
type Experiment struct {
	// File is the path the experiment was read from.
	File string
	// Name is [experiment].name.
	Name string
	// Description is [experiment].description, free text.
	Description string
	// Model is the configuration of the run: the base variant.
	Model topology.Config
	// Replications is how many times each variant runs, with seeds
	// derived from (Model.Seed, replication index), the same for every
	// variant. 1 when not set.
	Replications int
	// Variants are the [[variant]] blocks: named copies of the base
	// experiment with some settings overridden, in file order. The base
	// itself is not in the list; it is always compared as "base".
	Variants []Variant
	// CompareSeries is [experiment].compare_series: which replications'
	// time series ressim compare writes to its timeseries.csv, one of
	// SeriesModes; "" when not set (compare's default applies).
	CompareSeries string
	// Sweep is the [sweep] table, if any.
	Sweep *Sweep
	// Expects are the [[expect]] blocks on metrics, in file order.
	Expects []Expect
	// Alerts is the [alerts] table, nil without one; AlertExpects the
	// [[expect]] blocks on alerts (those with an alert key), in file
	// order, checked by ressim alerts.
	Alerts       *Alerts
	AlertExpects []AlertExpect
	// Knobs are the [[knob]] blocks, in file order (knob.go).
	Knobs []Knob
	// GameDay is the [gameday] table (gameday.go), nil without one: run,
	// compare and sweep ignore it.
	GameDay *GameDay

	doc       map[string]any // the decoded base document, for With
	pos       positions
	overrides map[string][]override // each variant's changes, by name
}

// Variant is one [[variant]] block, fully resolved.
type Variant struct {
	Name        string
	Description string
	Model       topology.Config
}

// Stdin is the file name Load reads standard input for, and StdinName
// the name its errors show.
const (
	Stdin     = "-"
	StdinName = "<stdin>"
)

// Load reads and validates the experiment file at path; "-" reads standard
// input, named "<stdin>" in errors. Whatever the file is (a regular file,
// a pipe, a FIFO, a device), Load reads at most MaxFileSize+1 bytes of it,
// so an endless source such as /dev/zero fails fast as too large. A FIFO
// is opened without waiting for a writer: with none it reads as empty.
func Load(path string) (*Experiment, error) {
	if path == Stdin {
		return Read(StdinName, os.Stdin)
	}
	f, regular, err := input.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read experiment: %w", err)
	}
	defer f.Close()
	return read(path, f, !regular)
}

// Read reads an experiment from r, at most MaxFileSize+1 bytes of it, and
// validates it; name names it in errors. An empty r is an error.
func Read(name string, r io.Reader) (*Experiment, error) { return read(name, r, true) }

// read reads at most MaxFileSize+1 bytes of r and parses them; special
// marks a source that is not a regular file, whose emptiness is reported
// as such.
func read(name string, r io.Reader, special bool) (*Experiment, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("read experiment %s: %w", name, err)
	}
	if len(data) > MaxFileSize {
		return nil, ErrorList{{File: name, Pos: Pos{1, 1}, Msg: fmt.Sprintf("file is larger than the %d-byte (1 MiB) limit", MaxFileSize)}}
	}
	if len(data) == 0 && special {
		return nil, ErrorList{{File: name, Pos: Pos{1, 1}, Msg: "read nothing: the pipe, FIFO or device gave no data (was anything writing to it?)"}}
	}
	return Parse(name, data)
}

// Parse validates an experiment held in memory; file names it in errors.
func Parse(file string, data []byte) (*Experiment, error) {
	if len(data) > MaxFileSize {
		return nil, ErrorList{{File: file, Pos: Pos{1, 1}, Msg: fmt.Sprintf("file is %d bytes, larger than the %d-byte (1 MiB) limit", len(data), MaxFileSize)}}
	}
	if err := prescan(file, string(data)); err != nil {
		return nil, ErrorList{err}
	}
	var doc map[string]any
	if _, err := toml.Decode(string(data), &doc); err != nil {
		return nil, syntaxError(file, err)
	}
	pos := scanPositions(string(data))
	sections := map[string]any{}
	for _, k := range []string{"variant", "sweep", "expect", "knob", "alerts", "gameday"} {
		if v, ok := doc[k]; ok {
			sections[k] = v
		}
		delete(doc, k)
	}
	r := &reader{file: file, pos: pos}
	e := r.experiment(r.root(deepCopy(doc).(map[string]any)))
	e.File = file
	// Anything the model still rejects is a loader bug, but it must be
	// reported, not panic.
	if len(r.errs) == 0 {
		if err := e.Model.Validate(); err != nil {
			r.errs = append(r.errs, &Error{File: file, Pos: Pos{1, 1}, Msg: err.Error()})
		}
	}
	e.doc, e.pos = doc, pos
	errs := append(r.errs, readSections(e, sections, len(r.errs) == 0)...)
	if len(errs) > 0 {
		return nil, errs.sorted().capped()
	}
	return e, nil
}

// readSections reads the sections that depend on the base: variants,
// expectations, knobs and the sweep. Every section is read even when an
// earlier one has problems, so that one run of validate reports them all;
// what depends on a valid base (each variant's, knob value's and sweep
// cell's model) is checked only when the base is valid.
func readSections(e *Experiment, sections map[string]any, baseOK bool) ErrorList {
	var errs ErrorList
	section := func() *reader { return &reader{file: e.File, pos: e.pos} }
	variantsOK := true
	if v, ok := sections["variant"]; ok {
		vr := section()
		e.Variants = vr.variants(vr.root(map[string]any{"variant": v}), e.doc, e, baseOK)
		errs = append(errs, vr.errs...)
		variantsOK = len(vr.errs) == 0
	}
	if v, ok := sections["alerts"]; ok {
		ar := section()
		e.Alerts = ar.alerts(ar.root(map[string]any{"alerts": v}))
		errs = append(errs, ar.errs...)
	}
	if v, ok := sections["expect"]; ok {
		er := section()
		e.Expects = er.expects(er.root(map[string]any{"expect": v}), e)
		errs = append(errs, er.errs...)
		if len(e.AlertExpects) > 0 && e.Alerts == nil {
			x := e.AlertExpects[0]
			errs = append(errs, &Error{File: e.File, Pos: x.Where, Key: x.Key, Msg: "an alert expectation needs an [alerts] table naming the rules file"})
		}
	}
	if v, ok := sections["knob"]; ok && baseOK {
		// A knob is checked by applying each of its values to the base,
		// which says nothing useful while the base itself is invalid.
		kr := section()
		e.Knobs = kr.knobs(kr.root(map[string]any{"knob": v}), e)
		errs = append(errs, kr.errs...)
	}
	if v, ok := sections["gameday"]; ok {
		// A move's set is checked against the base without its actions,
		// as an [[action]]'s is, only when the base is valid.
		var base map[string]any
		if baseOK {
			base = deepCopy(e.doc).(map[string]any)
			delete(base, "action")
		}
		gr := section()
		e.GameDay = gr.gameDay(gr.root(map[string]any{"gameday": v}), e, base)
		errs = append(errs, gr.errs...)
	}
	if v, ok := sections["sweep"]; ok {
		sr := section()
		e.Sweep = sr.sweep(sr.root(map[string]any{"sweep": v}), e, baseOK && variantsOK)
		errs = append(errs, sr.errs...)
	}
	return errs
}

func syntaxError(file string, err error) error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return ErrorList{{File: file, Pos: Pos{pe.Position.Line, pe.Position.Col}, Msg: "TOML syntax: " + pe.Message}}
	}
	return ErrorList{{File: file, Pos: Pos{1, 1}, Msg: "TOML syntax: " + err.Error()}}
}

// experiment reads the whole document.
func (r *reader) experiment(doc *table) *Experiment {
	e := &Experiment{}
	if v, ok := doc.integer("schema", true, 0, 1<<31); ok && v != SchemaVersion {
		r.errorf("schema", "unsupported schema %d; this ressim reads schema %d", v, SchemaVersion)
	}
	if ex, ok := doc.sub("experiment", true); ok {
		r.header(ex, e)
	}
	services := map[string]bool{}
	for _, st := range doc.tables("service") {
		if sc, ok := r.service(st, services, e.Model.PropagateDeadlines); ok {
			e.Model.Services = append(e.Model.Services, sc)
		}
	}
	if !doc.has("service") {
		r.errorf("", "no [[service]] declared; an experiment needs at least one")
	}
	clients := map[string]bool{}
	for _, ct := range doc.tables("client") {
		if cc, ok := r.client(ct, clients, services); ok {
			e.Model.Clients = append(e.Model.Clients, cc)
		}
	}
	if !doc.has("client") {
		r.errorf("", "no [[client]] declared; an experiment needs at least one")
	}
	for _, ft := range doc.tables("fault") {
		if fc, ok := r.fault(ft, &e.Model, services, clients); ok {
			e.Model.Faults = append(e.Model.Faults, fc)
		}
	}
	r.checkCalls(&e.Model, services)
	r.actions(doc, &e.Model, len(r.errs) == 0)
	doc.done("schema", "experiment", "client", "service", "fault", "action", "variant", "sweep", "expect", "alerts", "gameday")
	return e
}

func (r *reader) header(t *table, e *Experiment) {
	name, nok := t.str("name", true)
	e.Name = name
	if nok && !validName(e.Name) {
		r.errorf(t.key("name"), "name %q must be 1-64 letters, digits, '-', '_' or '.' (it names the output directory)", e.Name)
	}
	e.Description, _ = t.str("description", false)
	m := &e.Model
	m.Name = e.Name
	m.Duration, _ = t.duration("duration", true, time.Nanosecond)
	m.Warmup, _ = t.duration("warmup", false, 0)
	if m.Duration > 0 && m.Warmup >= m.Duration {
		r.errorf(t.key("warmup"), "must be shorter than duration (%v), got %v", m.Duration, m.Warmup)
	}
	if v, ok := t.intIn("seed", false, seedRange); ok {
		m.Seed = uint64(v)
	} else if !t.has("seed") {
		m.Seed = 1
	}
	if iv, ok := t.duration("interval", false, time.Millisecond); ok {
		m.Interval = iv
		if m.Duration > 0 && int64(m.Duration/iv) > topology.MaxIntervals {
			r.errorf(t.key("interval"), "gives %d time-series intervals over %v, more than %d; use a longer interval", int64(m.Duration/iv), m.Duration, topology.MaxIntervals)
		}
	} else if !t.has("interval") && m.Duration > 0 && int64(m.Duration/topology.DefaultInterval) > topology.MaxIntervals {
		r.errorf(t.key("duration"), "gives more than %d one-second time-series intervals; set a longer interval", topology.MaxIntervals)
	}
	m.PropagateDeadlines, _ = t.boolean("propagate_deadlines", false)
	m.PropagateCancellation, _ = t.boolean("propagate_cancellation", false)
	if v, ok := t.ranged("recovery_threshold", false, topology.SettingRecoveryThreshold.Range()); ok {
		m.Recovery.Threshold = v
	}
	m.Recovery.Window, _ = t.duration("recovery_window", false, time.Millisecond)
	if v, ok := t.ranged("recovery_alpha", false, topology.SettingRecoveryAlpha.Range()); ok {
		m.Recovery.Alpha = v
	}
	e.Replications = 1
	if n, ok := t.ranged("replications", false, replicationsRange); ok {
		e.Replications = int(n)
	}
	if i, ok := t.oneOf("compare_series", SeriesModes); ok {
		e.CompareSeries = SeriesModes[i]
	}
	t.done("name", "description", "duration", "warmup", "seed", "interval",
		"propagate_deadlines", "propagate_cancellation", "recovery_threshold", "recovery_window", "recovery_alpha", "replications", "compare_series")
}

func validName(s string) bool {
	if len(s) == 0 || len(s) > 64 || s == "." || s == ".." {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isBare(s[i]) && s[i] != '.' {
			return false
		}
	}
	return true
}

// ValidName reports whether s can name a client or a service: 1-64
// letters, digits, '-', '_' or '.', not "." or "..", and not the name the
// time series reserve for all clients. Tools that write experiments
// (import, fit) check names with it.
func ValidName(s string) bool { return validName(s) && s != topology.TotalEntity }
