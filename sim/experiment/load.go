package experiment

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/BurntSushi/toml"

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
	// Expects are the [[expect]] blocks, in file order.
	Expects []Expect
	// Knobs are the [[knob]] blocks, in file order (knob.go).
	Knobs []Knob

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

// Load reads and validates the experiment file at path.
func Load(path string) (*Experiment, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("read experiment: %w", err)
	}
	if st.Size() > MaxFileSize {
		return nil, ErrorList{{File: path, Pos: Pos{1, 1}, Msg: fmt.Sprintf("file is %d bytes, larger than the %d-byte limit", st.Size(), MaxFileSize)}}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read experiment: %w", err)
	}
	return Parse(path, data)
}

// Parse validates an experiment held in memory; file names it in errors.
func Parse(file string, data []byte) (*Experiment, error) {
	if len(data) > MaxFileSize {
		return nil, ErrorList{{File: file, Pos: Pos{1, 1}, Msg: fmt.Sprintf("file is %d bytes, larger than the %d-byte limit", len(data), MaxFileSize)}}
	}
	var doc map[string]any
	if _, err := toml.Decode(string(data), &doc); err != nil {
		return nil, syntaxError(file, err)
	}
	pos := scanPositions(string(data))
	variantDocs, _ := doc["variant"]
	delete(doc, "variant")
	sweepDoc, _ := doc["sweep"]
	delete(doc, "sweep")
	expectDoc, _ := doc["expect"]
	delete(doc, "expect")
	knobDoc, _ := doc["knob"] // read by readKnobs, knob.go
	delete(doc, "knob")
	r := &reader{file: file, pos: pos}
	e := r.experiment(r.root(deepCopy(doc).(map[string]any)))
	e.File = file
	if len(r.errs) > 0 {
		return nil, r.errs.sorted()
	}
	// Anything the model still rejects is a loader bug, but it must be
	// reported, not panic.
	if err := e.Model.Validate(); err != nil {
		return nil, ErrorList{{File: file, Pos: Pos{1, 1}, Msg: err.Error()}}
	}
	e.doc, e.pos = doc, pos
	if variantDocs != nil {
		vr := &reader{file: file, pos: pos}
		root := vr.root(map[string]any{"variant": variantDocs})
		e.Variants = vr.variants(root, doc, e)
		if len(vr.errs) > 0 {
			return nil, vr.errs.sorted()
		}
	}
	if expectDoc != nil {
		er := &reader{file: file, pos: pos}
		e.Expects = er.expects(er.root(map[string]any{"expect": expectDoc}), e)
		if len(er.errs) > 0 {
			return nil, er.errs.sorted()
		}
	}
	if err := readKnobs(e, knobDoc); err != nil {
		return nil, err
	}
	if sweepDoc != nil {
		sr := &reader{file: file, pos: pos}
		e.Sweep = sr.sweep(sr.root(map[string]any{"sweep": sweepDoc}), e)
		if e.Sweep != nil {
			for _, v := range e.Sweep.Variants {
				if _, ok := e.overrides[v]; !ok && v != "base" {
					sr.errorf("sweep.variants", "no variant named %q", v)
				}
			}
		}
		if len(sr.errs) > 0 {
			return nil, sr.errs.sorted()
		}
	}
	return e, nil
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
	doc.done("schema", "experiment", "client", "service", "fault", "variant", "sweep", "expect")
	return e
}

func (r *reader) header(t *table, e *Experiment) {
	e.Name, _ = t.str("name", true)
	if e.Name != "" && !validName(e.Name) {
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
	if v, ok := t.integer("seed", false, 0, 1<<62); ok {
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
	if v, ok := t.number("recovery_threshold", false, 0, 1, true, "share of the baseline goodput"); ok {
		m.Recovery.Threshold = v
	}
	m.Recovery.Window, _ = t.duration("recovery_window", false, time.Millisecond)
	if v, ok := t.number("recovery_alpha", false, 0, 0.1, true, "false-alarm level of the lock-in test"); ok {
		m.Recovery.Alpha = v
	}
	e.Replications = 1
	if n, ok := t.integer("replications", false, 1, MaxReplications); ok {
		e.Replications = int(n)
	}
	if i, ok := t.oneOf("compare_series", SeriesModes); ok {
		e.CompareSeries = SeriesModes[i]
	}
	t.done("name", "description", "duration", "warmup", "seed", "interval",
		"propagate_deadlines", "recovery_threshold", "recovery_window", "recovery_alpha", "replications", "compare_series")
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
