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

// Experiment is a validated experiment file.
type Experiment struct {
	// File is the path the experiment was read from.
	File string
	// Name is [experiment].name.
	Name string
	// Description is [experiment].description, free text.
	Description string
	// Model is the configuration of the run.
	Model topology.Config
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
	r := &reader{file: file, pos: scanPositions(string(data))}
	e := r.experiment(r.root(doc))
	e.File = file
	if len(r.errs) > 0 {
		return nil, r.errs.sorted()
	}
	// Anything the model still rejects is a loader bug, but it must be
	// reported, not panic.
	if err := e.Model.Validate(); err != nil {
		return nil, ErrorList{{File: file, Pos: Pos{1, 1}, Msg: err.Error()}}
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
		if sc, ok := r.service(st, services); ok {
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
	doc.done("schema", "experiment", "client", "service")
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
	t.done("name", "description", "duration", "warmup", "seed", "interval")
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

func (r *reader) service(t *table, seen map[string]bool) (topology.ServiceConfig, bool) {
	var sc topology.ServiceConfig
	ok := true
	sc.Name, _ = t.str("name", true)
	switch {
	case sc.Name == "" && t.has("name"):
		r.errorf(t.key("name"), "must not be empty")
		ok = false
	case sc.Name == "":
		ok = false
	case !validName(sc.Name):
		r.errorf(t.key("name"), "name %q must be 1-64 letters, digits, '-', '_' or '.'", sc.Name)
		ok = false
	case seen[sc.Name]:
		r.errorf(t.key("name"), "service %q is declared twice", sc.Name)
		ok = false
	}
	seen[sc.Name] = true
	if w, wok := t.integer("workers", true, 1, topology.MaxWorkers); wok {
		sc.Workers = int(w)
	} else {
		ok = false
	}
	sc.QueueCapacity = -1
	if t.has("queue_capacity") {
		if q, qok := t.integer("queue_capacity", false, 0, 1<<31); qok {
			sc.QueueCapacity = int(q)
		} else {
			ok = false
		}
	}
	if st, sok := t.sub("service_time", true); sok {
		d, dok := r.dist(st)
		sc.ServiceTime = d
		ok = ok && dok
	} else {
		ok = false
	}
	t.done("name", "workers", "queue_capacity", "service_time")
	return sc, ok
}

func (r *reader) client(t *table, seen, services map[string]bool) (topology.ClientConfig, bool) {
	var cc topology.ClientConfig
	ok := true
	cc.Name, _ = t.str("name", true)
	switch {
	case cc.Name == "":
		if t.has("name") {
			r.errorf(t.key("name"), "must not be empty")
		}
		ok = false
	case !validName(cc.Name):
		r.errorf(t.key("name"), "name %q must be 1-64 letters, digits, '-', '_' or '.'", cc.Name)
		ok = false
	case seen[cc.Name]:
		r.errorf(t.key("name"), "client %q is declared twice", cc.Name)
		ok = false
	}
	seen[cc.Name] = true
	if target, tok := t.str("target", true); tok {
		if !services[target] {
			r.errorf(t.key("target"), "no service named %q is declared", target)
			ok = false
		}
		cc.Target = target
	} else {
		ok = false
	}
	if rate, rok := t.number("rate", true, 0, topology.MaxRate, true, "requests per second"); rok {
		cc.Rate = rate
	} else {
		ok = false
	}
	t.done("name", "target", "rate")
	return cc, ok
}
