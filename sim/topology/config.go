package topology

import (
	"errors"
	"fmt"
	"slices"
	"time"
)

// Config describes one run of the model.
type Config struct {
	// Name names the experiment.
	Name string
	// Duration is the simulated time the run covers. Required, > 0.
	Duration time.Duration
	// Warmup is excluded from the summary statistics; 0 <= Warmup < Duration.
	Warmup time.Duration
	// Interval is the time-series resolution; 0 means DefaultInterval.
	Interval time.Duration
	// Seed seeds every random stream of the run.
	Seed uint64
	// Clients send the load; at least one.
	Clients []ClientConfig
	// Services serve it; at least one. Names are unique.
	Services []ServiceConfig
	// Faults are scheduled disturbances.
	Faults []FaultConfig
	// Actions are timed operator moves (config_action.go): settings
	// changed, kill switches flipped, load shed at given instants.
	Actions []ActionConfig
	// Recovery sets how recovery after each fault is judged.
	Recovery RecoveryConfig
	// Trace samples user requests for a trace-event file (Result.WriteTrace).
	Trace TraceConfig
	// EventLogCap bounds the state changes a run logs (Result.EventLog):
	// the first EventLogCap are kept, the rest counted as dropped. 0 means
	// DefaultEventLogCap; negative is invalid.
	EventLogCap int
	// PropagateDeadlines sends each user request's deadline along with
	// every downstream call, as gRPC and context.Context do: a service
	// drops a request whose deadline has passed when it leaves the queue,
	// makes no downstream call once it has passed, and cuts each attempt's
	// timeout to what is left. Without it only the client knows the
	// deadline, and callees keep working for callers that gave up.
	PropagateDeadlines bool
	// PropagateCancellation makes a cancelled handler (one that noticed
	// its cancellation, by its service's Cancellation mode) cancel its
	// outstanding downstream calls, as a Go context passed down a call
	// chain does: their attempts in flight are abandoned (each callee then
	// applies its own mode), their pending retries dropped, and the calls
	// end without further attempts. Without it (default false) those
	// calls go on and their answers are discarded.
	PropagateCancellation bool
}

// DefaultInterval is the time-series resolution when Config.Interval is 0.
const DefaultInterval = time.Second

// MaxIntervals bounds the number of time-series intervals in one run
// (Duration / Interval), so that a typo cannot exhaust memory.
const MaxIntervals = 1_000_000

// RecoveryConfig sets how recovery after a fault is judged.
type RecoveryConfig struct {
	// Threshold is the share of the baseline goodput that counts as
	// recovered, in (0, 1]; 0 means 0.9 (an experiment file, which can
	// leave the key out, refuses an explicit 0).
	Threshold float64
	// Window is the shortest test window; 0 means 5 s. A window is
	// lengthened until the threshold predicts MinExpected full answers in
	// it, and rounded up to whole intervals.
	Window time.Duration
	// Alpha is the false-alarm level of the end-state test: how likely a
	// system whose goodput is at the threshold is judged locked in, in
	// (0, 0.1]; 0 means DefaultRecoveryAlpha (a file refuses an explicit 0).
	Alpha float64
}

// Limits on sizes, so that no configuration can exhaust memory at build
// time. The range table (settings.go) uses them.
const (
	MaxWorkers   = 1_000_000  // workers or async slots per instance
	MaxInstances = 10_000     // instances per service
	MaxRate      = 1e9        // requests per second per client
	MaxUsers     = 10_000_000 // closed-loop users per client
	MaxSteps     = 1000       // steps per handler
	MaxKeys      = 1 << 30    // keys of a cache's keyspace
	MaxQueue     = 1 << 31    // requests waiting per instance, when bounded
)

// ErrConfig wraps every configuration error.
var ErrConfig = errors.New("invalid model configuration")

func bad(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrConfig, fmt.Sprintf(format, a...))
}

// Validate checks c and returns the first problem found.
func (c *Config) Validate() error {
	if err := c.validateRun(); err != nil {
		return err
	}
	svcs, err := c.serviceIndex()
	if err != nil {
		return err
	}
	for _, s := range c.Services {
		if err := s.validate(svcs, c.PropagateDeadlines); err != nil {
			return err
		}
	}
	if err := c.checkCycles(svcs); err != nil {
		return err
	}
	if err := c.checkOperations(svcs); err != nil {
		return err
	}
	clients, err := c.validateClients(svcs)
	if err != nil {
		return err
	}
	for i, f := range c.Faults {
		if err := f.validate(c, svcs, clients); err != nil {
			return fmt.Errorf("fault %d (%s): %w", i, f.Kind, err)
		}
	}
	return c.validateActions(svcs)
}

// validateRun checks the run's own settings: its length, warm-up,
// interval, tracing and recovery test, and that it has services and
// clients.
func (c *Config) validateRun() error {
	if c.Duration <= 0 {
		return bad("duration must be > 0, got %v", c.Duration)
	}
	if c.Warmup < 0 || c.Warmup >= c.Duration {
		return bad("warmup must be in [0, duration), got %v (duration %v)", c.Warmup, c.Duration)
	}
	if c.Interval < 0 {
		return bad("interval must be > 0, got %v", c.Interval)
	}
	if iv := c.interval(); int64(c.Duration/iv) > MaxIntervals {
		return bad("duration/interval = %d intervals, more than %d", int64(c.Duration/iv), MaxIntervals)
	}
	if c.Trace.Every < 0 || c.Trace.Max < 0 {
		return bad("trace sampling must be >= 0")
	}
	if c.EventLogCap < 0 {
		return bad("event log cap must be >= 0 (0: %d), got %d", DefaultEventLogCap, c.EventLogCap)
	}
	if c.Recovery.Window < 0 {
		return bad("recovery window must be >= 0, got %v", c.Recovery.Window)
	}
	if err := SettingRecoveryThreshold.check(c.Recovery.Threshold); err != nil {
		return bad("%v", err)
	}
	if err := SettingRecoveryAlpha.check(c.Recovery.Alpha); err != nil {
		return bad("%v", err)
	}
	if len(c.Services) == 0 {
		return bad("no services")
	}
	if len(c.Clients) == 0 {
		return bad("no clients")
	}
	return nil
}

// serviceIndex maps the services' names, which must be present and
// unique, to their index.
func (c *Config) serviceIndex() (map[string]int, error) {
	svcs := map[string]int{}
	for i, s := range c.Services {
		if s.Name == "" {
			return nil, bad("service %d has no name", i)
		}
		if _, dup := svcs[s.Name]; dup {
			return nil, bad("service %q declared twice", s.Name)
		}
		svcs[s.Name] = i
	}
	return svcs, nil
}

// checkOperations checks that every call names an operation its callee
// has a handler for.
func (c *Config) checkOperations(svcs map[string]int) error {
	for _, s := range c.Services {
		for _, h := range s.handlers() {
			for _, st := range h {
				for _, cc := range st.Calls {
					if _, ok := c.Services[svcs[cc.Service]].HandlerFor(cc.Operation); !ok {
						return bad("service %q calls operation %q of %q, which has no handler for it", s.Name, cc.Operation, cc.Service)
					}
				}
			}
		}
	}
	return nil
}

// validateClients checks the clients and returns the set of their names.
func (c *Config) validateClients(svcs map[string]int) (map[string]bool, error) {
	clients := map[string]bool{}
	for i, cl := range c.Clients {
		if cl.Name == "" {
			return nil, bad("client %d has no name", i)
		}
		if clients[cl.Name] {
			return nil, bad("client %q declared twice", cl.Name)
		}
		clients[cl.Name] = true
		if err := cl.validate(svcs); err != nil {
			return nil, err
		}
	}
	return clients, nil
}

// checkCycles rejects call graphs with cycles (a service that calls
// itself, directly or not), which would recurse without end.
func (c *Config) checkCycles(svcs map[string]int) error {
	const (
		white = iota
		grey
		black
	)
	color := make([]int, len(c.Services))
	var path []string
	var visit func(i int) error
	visit = func(i int) error {
		color[i] = grey
		path = append(path, c.Services[i].Name)
		for _, st := range slices.Concat(c.Services[i].handlers()...) {
			for _, cc := range st.Calls {
				j := svcs[cc.Service]
				switch color[j] {
				case grey:
					return bad("call cycle: %v -> %s", path, cc.Service)
				case white:
					if err := visit(j); err != nil {
						return err
					}
				}
			}
		}
		path = path[:len(path)-1]
		color[i] = black
		return nil
	}
	for i := range c.Services {
		if color[i] == white {
			if err := visit(i); err != nil {
				return err
			}
		}
	}
	return nil
}

func (c *Config) interval() time.Duration {
	if c.Interval == 0 {
		return DefaultInterval
	}
	return c.Interval
}
