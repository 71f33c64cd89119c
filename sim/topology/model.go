package topology

import (
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/engine"
)

// Model is a configured system ready to run once.
type Model struct {
	cfg      Config
	sim      *engine.Sim
	warmup   engine.Time
	end      engine.Time
	services []*service
	clients  []*client
	pool     requestPool
	series   *seriesRecorder
	ran      bool
}

// New validates cfg and builds the model. The run's random streams derive
// from cfg.Seed.
func New(cfg Config) (*Model, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	m := &Model{
		cfg:    cfg,
		sim:    engine.New(cfg.Seed),
		warmup: engine.Time(cfg.Warmup),
		end:    engine.Time(cfg.Duration),
	}
	byName := map[string]*service{}
	for _, sc := range cfg.Services {
		s := newService(m, sc)
		m.services = append(m.services, s)
		byName[sc.Name] = s
	}
	for _, cc := range cfg.Clients {
		m.clients = append(m.clients, newClient(m, cc, byName[cc.Target]))
	}
	var err error
	if m.series, err = newSeriesRecorder(m, cfg.interval()); err != nil {
		return nil, fmt.Errorf("topology: time series: %w", err)
	}
	return m, nil
}

// Run simulates the configured duration and returns the results. A Model
// runs once; a second call returns an error.
func (m *Model) Run() (*Result, error) {
	if m.ran {
		return nil, fmt.Errorf("topology: model %q already ran", m.cfg.Name)
	}
	m.ran = true
	for _, c := range m.clients {
		c.start()
	}
	if m.warmup > 0 {
		m.sim.At(m.warmup, engine.HandlerFunc(m.endWarmup), nil)
	}
	m.series.start()
	m.sim.RunUntil(m.end)
	if m.series.err != nil {
		return nil, fmt.Errorf("topology: time series: %w", m.series.err)
	}
	return m.result(), nil
}

// endWarmup opens the measurement window.
func (m *Model) endWarmup(now engine.Time, _ any) {
	for _, s := range m.services {
		s.st.warmArea = s.st.areas(now)
	}
}

// window returns the measurement window's length.
func (m *Model) window() time.Duration { return m.end.Sub(m.warmup) }

// Events returns the number of events the run fired.
func (m *Model) Events() uint64 { return m.sim.Fired() }
