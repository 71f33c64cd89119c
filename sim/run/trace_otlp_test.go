package run

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/run/runner"
	"github.com/ressim/ressim/sim/topology"
)

// otlpDoc is the part of an OTLP/JSON trace the tests read.
type otlpDoc struct {
	ResourceSpans []struct {
		Resource struct {
			Attributes []otlpAttr `json:"attributes"`
		} `json:"resource"`
		ScopeSpans []struct {
			Scope struct {
				Name string `json:"name"`
			} `json:"scope"`
			Spans []otlpTestSpan `json:"spans"`
		} `json:"scopeSpans"`
	} `json:"resourceSpans"`
}

type otlpAttr struct {
	Key   string `json:"key"`
	Value struct {
		StringValue *string `json:"stringValue"`
		IntValue    *string `json:"intValue"`
	} `json:"value"`
}

type otlpTestSpan struct {
	TraceID      string     `json:"traceId"`
	SpanID       string     `json:"spanId"`
	ParentSpanID string     `json:"parentSpanId"`
	Name         string     `json:"name"`
	Kind         int        `json:"kind"`
	Start        string     `json:"startTimeUnixNano"`
	End          string     `json:"endTimeUnixNano"`
	Attributes   []otlpAttr `json:"attributes"`
	Status       *struct {
		Code int `json:"code"`
	} `json:"status"`
	resource string // the service.name of its resource
}

func (s *otlpTestSpan) attr(k string) string {
	for _, a := range s.Attributes {
		if a.Key == k && a.Value.StringValue != nil {
			return *a.Value.StringValue
		}
	}
	return ""
}

// otlpSpans reads an OTLP/JSON trace's spans, each with its resource's
// service.name.
func otlpSpans(t *testing.T, raw []byte) []*otlpTestSpan {
	t.Helper()
	var doc otlpDoc
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	var out []*otlpTestSpan
	for _, rs := range doc.ResourceSpans {
		name := ""
		for _, a := range rs.Resource.Attributes {
			if a.Key == "service.name" && a.Value.StringValue != nil {
				name = *a.Value.StringValue
			}
		}
		if name == "" {
			t.Fatal("a resource without service.name")
		}
		for _, ss := range rs.ScopeSpans {
			if ss.Scope.Name != "ressim" {
				t.Errorf("scope %q, want ressim", ss.Scope.Name)
			}
			for i := range ss.Spans {
				s := &ss.Spans[i]
				s.resource = name
				out = append(out, s)
			}
		}
	}
	return out
}

// lowerHex reports whether s is n lower-case hexadecimal digits, as
// OTLP/JSON writes trace (32) and span (16) IDs. It is not a package-level
// regexp: compiling `[0-9a-f]{32}` at init was enough work for V8 to
// compile regexp's compiler with TurboFan in every WebAssembly process of
// this package, BenchmarkExecute's included (docs/performance.md).
func lowerHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// TestTraceOTLP runs bundled experiments (retries over a failing
// database, hedging, cancellation, a breaker with a fallback, a crash)
// with both trace formats and checks trace.otlp.json: the same bytes
// twice; well-formed IDs and times on the --openmetrics-start epoch; one
// root (a client's CLIENT span) per traced request, as many as trace.json
// has; every other span's parent in the same trace; a SERVER span's
// parent a CLIENT span whose peer.service is the SERVER's service; a
// CLIENT attempt's parent the root or a SERVER span of its own resource;
// and, over retry-amplification's failing database, the attempts its
// three retrying layers send (3 + 9 + 27 a request) with failures marked.
func TestTraceOTLP(t *testing.T) {
	start := time.Date(2030, 5, 1, 12, 0, 0, 0, time.UTC)
	for _, name := range []string{"retry-amplification", "hedging", "cancellation-storm", "breaker-fallback", "readiness-trap", "deadline-propagation"} {
		t.Run(name, func(t *testing.T) {
			exp, err := experiment.Load(filepath.Join("..", "..", "experiments", name+".toml"))
			if err != nil {
				t.Fatal(err)
			}
			opt := Options{TraceEvery: 97, TraceMax: 60, TraceFormat: TraceBoth, TraceStart: start}
			var raw [2][]byte
			var perfetto []byte
			for i := range raw {
				out, err := Execute(exp, opt, output.NewFolder(t.TempDir(), false))
				if err != nil {
					t.Fatal(err)
				}
				if raw[i], err = os.ReadFile(filepath.Join(out.Dir, TraceOTLPFile)); err != nil {
					t.Fatal(err)
				}
				if perfetto, err = os.ReadFile(filepath.Join(out.Dir, TraceFile)); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(raw[0], raw[1]) {
				t.Fatal("trace.otlp.json differs between two runs of the same experiment and seed")
			}
			checkOTLP(t, name, otlpSpans(t, raw[0]), tracedRequests(t, perfetto), start)
			cfg, err := model(exp, opt)
			if err != nil {
				t.Fatal(err)
			}
			cfg.Trace = topology.TraceConfig{Every: opt.TraceEvery, Max: opt.TraceMax}
			if est := runner.Estimate(cfg).TraceOTLP; float64(len(raw[0])) > est {
				t.Errorf("trace.otlp.json is %d bytes, over its estimate %.0f", len(raw[0]), est)
			}
		})
	}
}

// TestTraceOTLPBudget: --max-output counts trace.otlp.json: a budget that
// holds the data files and half the trace's estimate lets the run write
// trace.json only, and refuses it with trace.otlp.json.
func TestTraceOTLPBudget(t *testing.T) {
	exp := load(t)
	opt := Options{TraceEvery: 1}
	cfg, err := model(exp, opt)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Trace = topology.TraceConfig{Every: 1}
	c := runner.Estimate(cfg)
	if c.TraceOTLP <= 0 {
		t.Fatalf("trace estimate %v", c.TraceOTLP)
	}
	opt.Budget = runner.Budget{MaxOutput: c.SeriesBytes + c.EventsBytes + c.TraceOTLP/2}
	if _, err := Execute(exp, opt, output.NewFolder(t.TempDir(), false)); err != nil {
		t.Fatalf("trace.json only: %v", err)
	}
	for _, f := range []TraceFormat{TraceOTLP, TraceBoth} {
		opt.TraceFormat = f
		if _, err := Execute(exp, opt, output.NewFolder(t.TempDir(), false)); !errors.Is(err, runner.ErrBudget) {
			t.Errorf("--trace-format %s over --max-output: %v, want the output budget's refusal", f, err)
		}
	}
}

// tracedRequests counts trace.json's processes: one per traced request.
func tracedRequests(t *testing.T, raw []byte) int {
	t.Helper()
	var doc struct {
		TraceEvents []struct{ Ph string } `json:"traceEvents"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range doc.TraceEvents {
		if e.Ph == "M" {
			n++
		}
	}
	return n
}

func checkOTLP(t *testing.T, name string, spans []*otlpTestSpan, requests int, start time.Time) {
	byID := map[string]*otlpTestSpan{}
	for _, s := range spans {
		if !lowerHex(s.TraceID, 32) || !lowerHex(s.SpanID, 16) || s.SpanID == "0000000000000000" {
			t.Fatalf("span %q: trace ID %q, span ID %q", s.Name, s.TraceID, s.SpanID)
		}
		if byID[s.SpanID] != nil {
			t.Fatalf("span ID %s twice", s.SpanID)
		}
		byID[s.SpanID] = s
		from, err1 := strconv.ParseInt(s.Start, 10, 64)
		to, err2 := strconv.ParseInt(s.End, 10, 64)
		if err1 != nil || err2 != nil || from < start.UnixNano() || to < from {
			t.Errorf("span %s %q: times %s..%s, want decimal nanoseconds from %d on", s.SpanID, s.Name, s.Start, s.End, start.UnixNano())
		}
	}
	roots, attempts, servers, failed := 0, 0, 0, 0
	traces := map[string]bool{}
	for _, s := range spans {
		if s.Status != nil && s.Status.Code == 2 {
			failed++
		}
		if s.ParentSpanID == "" {
			roots++
			traces[s.TraceID] = true
			if s.Kind != 3 || s.attr("peer.service") == "" {
				t.Errorf("root %s %q: kind %d, peer.service %q; want a CLIENT span to a service", s.SpanID, s.Name, s.Kind, s.attr("peer.service"))
			}
			continue
		}
		p := byID[s.ParentSpanID]
		if p == nil || p.TraceID != s.TraceID {
			t.Errorf("span %s %q: parent %s is not in trace %s", s.SpanID, s.Name, s.ParentSpanID, s.TraceID)
			continue
		}
		switch s.Kind {
		case 2:
			servers++
			if p.Kind != 3 || p.attr("peer.service") != s.resource {
				t.Errorf("SERVER span %s at %s: parent %s is kind %d to %q", s.SpanID, s.resource, p.SpanID, p.Kind, p.attr("peer.service"))
			}
		case 3:
			attempts++
			if s.attr("peer.service") == "" {
				t.Errorf("CLIENT span %s has no peer.service", s.SpanID)
			}
			if p.ParentSpanID != "" && p.Kind != 2 || p.resource != s.resource {
				t.Errorf("CLIENT span %s of %s: parent %s is kind %d of %s; want the root or a SERVER span of its caller", s.SpanID, s.resource, p.SpanID, p.Kind, p.resource)
			}
		default:
			t.Errorf("span %s: kind %d", s.SpanID, s.Kind)
		}
	}
	if roots != requests || len(traces) != requests || requests == 0 {
		t.Errorf("%d roots in %d traces; trace.json traced %d requests", roots, len(traces), requests)
	}
	if servers == 0 || servers > attempts {
		t.Errorf("%d SERVER spans for %d attempts", servers, attempts)
	}
	if name == "retry-amplification" {
		if attempts != requests*(3+9+27) || failed == 0 {
			t.Errorf("%d attempts (%d failed) for %d requests; want 39 a request, failures marked", attempts, failed, requests)
		}
	}
}
