package experiment

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/dist"
	"github.com/ressim/ressim/sim/topology"
)

const good = `schema = 1
[experiment]
name = "mm10"
duration = "1000s"
warmup = "10s"
seed = 7
interval = "500ms"

[[client]]
name = "users"
target = "server"
rate = 900

[[service]]
name = "server"
workers = 10
queue_capacity = 10
service_time = { dist = "exponential", mean = "10ms" }

[[service]]
name = "db"
workers = 2
[service.service_time]
dist = "erlang"
mean = "4ms"
k = 4
`

func TestParseGood(t *testing.T) {
	e, err := Parse("good.toml", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	m := e.Model
	if e.Name != "mm10" || m.Duration != 1000*time.Second || m.Warmup != 10*time.Second || m.Seed != 7 || m.Interval != 500*time.Millisecond {
		t.Errorf("header = %q %v %v %d %v", e.Name, m.Duration, m.Warmup, m.Seed, m.Interval)
	}
	if len(m.Clients) != 1 || m.Clients[0].Name != "users" || m.Clients[0].Target != "server" || m.Clients[0].Rate != 900 {
		t.Errorf("clients = %+v", m.Clients)
	}
	if len(m.Services) != 2 {
		t.Fatalf("services = %+v", m.Services)
	}
	s0, s1 := m.Services[0], m.Services[1]
	if s0.Name != "server" || s0.Workers != 10 || s0.QueueCapacity != 10 || s0.Steps[0].Work.Kind() != dist.Exponential || s0.Steps[0].Work.Mean() != 10*time.Millisecond {
		t.Errorf("service 0 = %+v", s0)
	}
	if s1.QueueCapacity != -1 {
		t.Errorf("absent queue_capacity = %d, want -1 (unbounded)", s1.QueueCapacity)
	}
	if w := s1.Steps[0].Work; w.Kind() != dist.Erlang || w.Mean() != 4*time.Millisecond || w.SCV() != 0.25 {
		t.Errorf("service 1 time = %v mean %v scv %v", w.Kind(), w.Mean(), w.SCV())
	}
}

func TestDefaults(t *testing.T) {
	src := `schema = 1
[experiment]
name = "d"
duration = "10s"
[[client]]
name = "c"
target = "s"
rate = 1.5
[[service]]
name = "s"
workers = 1
service_time = { dist = "uniform", min = "1ms", max = "3ms" }
`
	e, err := Parse("d.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if e.Model.Seed != 1 || e.Model.Warmup != 0 || e.Model.Interval != 0 {
		t.Errorf("defaults: seed %d warmup %v interval %v; want 1, 0, 0 (the model's default)", e.Model.Seed, e.Model.Warmup, e.Model.Interval)
	}
	if e.Model.Clients[0].Rate != 1.5 {
		t.Errorf("rate = %v", e.Model.Clients[0].Rate)
	}
}

// edit returns good with old replaced by new (exactly once).
func edit(t *testing.T, old, new string) string {
	t.Helper()
	if strings.Count(good, old) != 1 {
		t.Fatalf("edit: %q occurs %d times", old, strings.Count(good, old))
	}
	return strings.Replace(good, old, new, 1)
}

// TestErrors checks each error's position, key path and message: the
// exact location is what lets a user fix a file without guessing.
func TestErrors(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // substrings of the error text, in order
	}{
		{"syntax", edit(t, `rate = 900`, `rate = = 900`), []string{"bad.toml:12:", "TOML syntax"}},
		{"unknown top-level key", "colour = 3\n" + good, []string{"bad.toml:1:1: colour: unknown key"}},
		{"unknown key with hint", edit(t, "workers = 10", "workrs = 10"), []string{
			`bad.toml:14:1: service[0]: missing required key "workers"`,
			`bad.toml:16:1: service[0].workrs: unknown key "workrs" (did you mean "workers"?)`}},
		{"unknown key in inline table", edit(t, `mean = "10ms" }`, `mean = "10ms", shape = 2 }`), []string{
			"bad.toml:18:", "service[0].service_time.shape: unknown key"}},
		{"unknown key in sub-table", edit(t, "k = 4", "k = 4\nkk = 5"), []string{"bad.toml:27:1: service[1].service_time.kk: unknown key \"kk\" (did you mean \"k\"?)"}},
		{"schema", strings.Replace(good, "schema = 1", "schema = 2", 1), []string{"bad.toml:1:1: schema: unsupported schema 2"}},
		{"missing schema", strings.Replace(good, "schema = 1", "", 1), []string{`missing required key "schema"`}},
		{"zero workers", edit(t, "workers = 10", "workers = 0"), []string{"bad.toml:16:1: service[0].workers: must be in [1, 1000000], got 0"}},
		{"negative workers", edit(t, "workers = 2", "workers = -2"), []string{"bad.toml:22:1: service[1].workers: must be in [1"}},
		{"float workers", edit(t, "workers = 10", "workers = 2.5"), []string{"service[0].workers: expected an integer, got a float"}},
		{"negative rate", edit(t, "rate = 900", "rate = -5"), []string{"bad.toml:12:1: client[0].rate: must be in (0, 10^9]", "got -5"}},
		{"zero rate", edit(t, "rate = 900", "rate = 0"), []string{"client[0].rate: must be in (0"}},
		{"nan rate", edit(t, "rate = 900", "rate = nan"), []string{"client[0].rate: must be in"}},
		{"string rate", edit(t, "rate = 900", `rate = "fast"`), []string{"client[0].rate: expected a number (requests per second), got a string"}},
		{"bad duration", edit(t, `duration = "1000s"`, `duration = "1000"`), []string{"bad.toml:4:1: experiment.duration: expected a duration such as"}},
		{"zero duration", edit(t, `duration = "1000s"`, `duration = "0s"`), []string{"experiment.duration: must be in [1ns"}},
		{"integer duration", edit(t, `duration = "1000s"`, `duration = 1000`), []string{"experiment.duration: expected a duration string", "got an integer"}},
		{"warmup too long", edit(t, `warmup = "10s"`, `warmup = "2000s"`), []string{"bad.toml:5:1: experiment.warmup: must be shorter than duration"}},
		{"unknown dist", edit(t, `dist = "exponential"`, `dist = "gamma"`), []string{"bad.toml:18:", `service[0].service_time.dist: unknown distribution "gamma"; expected one of: constant, exponential`}},
		{"negative mean", edit(t, `mean = "10ms"`, `mean = "-10ms"`), []string{"service[0].service_time.mean: must be in [1ns"}},
		{"erlang without k", edit(t, "k = 4", ""), []string{`service[1].service_time: missing required key "k"`}},
		{"hyperexponential scv < 1", edit(t, `dist = "erlang"`, `dist = "hyperexponential"`), []string{`service[1].service_time: missing required key "scv"`, "service[1].service_time.k: unknown key"}},
		{"compare_series", edit(t, `interval = "500ms"`, "interval = \"500ms\"\ncompare_series = \"frist\""), []string{`bad.toml:8:1: experiment.compare_series: unknown value "frist" (did you mean "first"?); expected one of: all, first, none`}},
		{"normal without sd", strings.Replace(edit(t, `dist = "erlang"`, `dist = "normal"`), "k = 4", "", 1), []string{`bad.toml:23:1: service[1].service_time: missing required key "sd"`}},
		{"normal negative sd", strings.Replace(edit(t, `dist = "erlang"`, `dist = "normal"`), "k = 4", `sd = "-1ms"`, 1), []string{`bad.toml:26:1: service[1].service_time.sd: must be in [0s,`, "got -1ms"}},
		{"normal numeric sd", strings.Replace(edit(t, `dist = "erlang"`, `dist = "normal"`), "k = 4", `sd = 0.5`, 1), []string{`bad.toml:26:1: service[1].service_time.sd: expected a duration string`}},
		{"normal with sigma", strings.Replace(edit(t, `dist = "erlang"`, `dist = "normal"`), "k = 4", "sd = \"1ms\"\nsigma = 1", 1), []string{`bad.toml:27:1: service[1].service_time.sigma: unknown key "sigma"`}},
		{"missing target", edit(t, `target = "server"`, `target = "nowhere"`), []string{"bad.toml:11:1: client[0].target: no service named \"nowhere\""}},
		{"duplicate service", edit(t, `name = "db"`, `name = "server"`), []string{"bad.toml:21:1: service[1].name: service \"server\" is declared twice"}},
		{"bad name", edit(t, `name = "db"`, `name = "d b/.."`), []string{"service[1].name: name \"d b/..\" must be"}},
		{"no services", strings.Split(good, "[[service]]")[0], []string{"no [[service]] declared", `no service named "server"`}},
		{"too many intervals", strings.Replace(edit(t, `interval = "500ms"`, `interval = "1ms"`), `"1000s"`, `"10000s"`, 1), []string{"experiment.interval: gives 10000000"}},
		{"service is a table", strings.Replace(good, "[[service]]", "[service]", 1), []string{"TOML syntax"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("bad.toml", []byte(tt.src))
			if err == nil {
				t.Fatal("accepted")
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("error does not match ErrInvalid: %v", err)
			}
			msg := err.Error()
			rest := msg
			for _, w := range tt.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("error text lacks %q (in order):\n%s", w, msg)
				}
				rest = rest[i+len(w):]
			}
		})
	}
}

// TestNormalDist reads a normal distribution: mean is the untruncated
// normal's, and the model gets the truncated one (mean 4ms + 1ms *
// lambda(-4) = 4.0001338ms, lambda(-4) = phi(4)/Phi(4) = 1.3383e-4;
// Mean truncates to the nanosecond).
func TestNormalDist(t *testing.T) {
	src := strings.Replace(edit(t, `dist = "erlang"`, `dist = "normal"`), "k = 4", `sd = "1ms"`, 1)
	e, err := Parse("n.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	w := e.Model.Services[1].Steps[0].Work
	if w.Kind() != dist.Normal || w.Mean() != 4000133*time.Nanosecond {
		t.Errorf("normal: kind %v mean %v, want normal 4.000133ms", w.Kind(), w.Mean())
	}
}

func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x.toml")
	os.WriteFile(p, []byte(good), 0o644)
	if _, err := Load(p); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(filepath.Join(dir, "missing.toml")); err == nil || errors.Is(err, ErrInvalid) {
		t.Errorf("missing file: err = %v; want a read error, not ErrInvalid", err)
	}
	big := filepath.Join(dir, "big.toml")
	os.WriteFile(big, []byte(strings.Repeat("# padding\n", MaxFileSize/10+1)), 0o644)
	if _, err := Load(big); !errors.Is(err, ErrInvalid) {
		t.Errorf("oversized file: err = %v", err)
	}
}

// TestBundledExperiments loads every file in experiments/.
func TestBundledExperiments(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "experiments", "*.toml"))
	if len(files) == 0 {
		t.Fatal("no experiments found")
	}
	for _, f := range files {
		if _, err := Load(f); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

func TestPositions(t *testing.T) {
	src := `a = 1
[t]
  "quoted key" = 'x'
  b.c = [1, 2,
    { d = 3 }]
s = """multi
line = 5
"""
[[arr]]
x = 1
[[arr]]
x = { y = "}" , z = [ "]" ] }
[[arr.sub]]
w = 1
[t2]  # comment
v = 1
`
	p := scanPositions(src)
	want := map[string]Pos{
		"a":             {1, 1},
		"t":             {2, 1},
		"t.quoted key":  {3, 3},
		"t.b.c":         {4, 3},
		"t.b.c.2.d":     {5, 7},
		"t.s":           {6, 1},
		"arr.0.x":       {10, 1},
		"arr.1.x.z":     {12, 17},
		"arr.1.sub.0.w": {14, 1},
		"t2.v":          {16, 1},
		"arr.1":         {11, 1},
		"arr.1.x.y":     {12, 7},
		"t.b.c.1":       {4, 13},
		"t2":            {15, 1},
		"arr.1.sub.0":   {13, 1},
		"t.b":           {4, 3},
		"arr.0":         {9, 1},
		"t.b.c.0":       {4, 10},
		"t.b.c.2":       {5, 5},
		"arr.1.x":       {12, 1},
		"arr.1.x.z.0":   {12, 23},
		"line (no key)": {0, 0},
	}
	delete(want, "line (no key)")
	for k, w := range want {
		if got, ok := p[k]; !ok || got != w {
			t.Errorf("position of %q = %v (found %v), want %v", k, got, ok, w)
		}
	}
	if _, ok := p["t.s.line"]; ok {
		t.Error("a key inside a multi-line string was recorded")
	}
	if got := p.lookup("arr.1.x.nope.deeper"); got != (Pos{12, 1}) {
		t.Errorf("lookup falls back to %v, want the nearest ancestor at 12:1", got)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(good))
	f.Add([]byte("schema = 1\n[experiment]\nname='x'\nduration='1s'\n"))
	f.Add([]byte("a = [{b = 1}, {c = [1,2]}]\n[[d.e]]\n[d]\n"))
	f.Add([]byte(`s = """\"""" + '''x'''`))
	f.Add([]byte(withVariants))
	f.Add([]byte(gameDayBase))
	f.Add([]byte(strings.Replace(strings.Replace(good, `dist = "erlang"`, `dist = "normal"`, 1), "k = 4", `sd = "3ms"`, 1)))
	f.Add([]byte(strings.Replace(strings.Replace(good, `interval = "500ms"`, "interval = \"500ms\"\npropagate_deadlines = true", 1),
		"workers = 10\n", "workers = 10\nabandonment = \"on_expiry\"\n", 1)))
	f.Add([]byte(strings.Replace(strings.Replace(good, `interval = "500ms"`, "interval = \"500ms\"\npropagate_cancellation = true", 1),
		"workers = 10\n", "workers = 10\ncancellation = \"continuous\"\n", 1)))
	f.Add([]byte(good + `
[sweep]
x = { path = "client.users.rate", values = [100, 200] }
y = { path = "service.server.workers", values = [5, 10] }
[[expect]]
metric = "goodput"
min = 1
`))
	f.Add([]byte(actionBase + "\n[[service]]\nname = \"q\"\nmode = \"async\"\nmax_in_flight = 10\n" +
		"service_time = { dist = \"exponential\", mean = \"5ms\" }\n[[action]]\nat = \"10s\"\nset = { \"service.q.queue_capacity\" = 5 }\n"))
	hostile, _ := filepath.Glob(filepath.Join("testdata", "hostile", "*.toml"))
	for _, h := range hostile {
		if b, err := os.ReadFile(h); err == nil {
			f.Add(b)
		}
	}
	for _, b := range bombs(40) {
		f.Add([]byte(b))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := Parse("fuzz.toml", data)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error is not ErrInvalid: %v", err)
			}
			// What the model refuses after the reader accepted it is told
			// at 1:1, with no key: a reader that let it through (as it
			// once did an action's queue bound for an async service).
			var list ErrorList
			if errors.As(err, &list) {
				for _, e := range list {
					if e.Pos == (Pos{1, 1}) && strings.Contains(e.Msg, topology.ErrConfig.Error()) {
						t.Fatalf("the reader let through what the model refuses: %v", e)
					}
				}
			}
			return
		}
		// A file the loader accepts must build a model, and so must each
		// of its variants.
		if _, err := topology.New(e.Model); err != nil {
			t.Fatalf("accepted file fails to build: %v", err)
		}
		for _, v := range e.Variants {
			if _, err := topology.New(v.Model); err != nil {
				t.Fatalf("accepted variant %q fails to build: %v", v.Name, err)
			}
		}
	})
}

func FuzzPositions(f *testing.F) {
	f.Add(good)
	f.Add("[[a]]\n[[a.b]]\n[a.b.c]\nx.y = {z = [1, {w = 2}]}\n")
	f.Fuzz(func(t *testing.T, src string) {
		p := scanPositions(src) // must terminate without panicking
		for k, pos := range p {
			if pos.Line < 1 || pos.Col < 1 {
				t.Fatalf("%q at %v", k, pos)
			}
		}
	})
}

func TestPolicyCrossFieldErrorsAtTheirKey(t *testing.T) {
	for _, tt := range []struct{ add, want string }{
		{"codel = {}\nlifo = {}\n", "bad.toml:25:1: service[1].lifo: codel and lifo both manage the queue"},
		{"limit = { min = 50, max = 10 }\n", "bad.toml:24:1: service[1].limit: limit.NewAIMD: limit: invalid config: MaxLimit 10: must be at least MinLimit 50"},
	} {
		src := strings.Replace(good, "workers = 2\n", "workers = 2\nqueue_capacity = 10\n"+tt.add, 1)
		_, err := Parse("bad.toml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: err = %v, want %q", tt.add, err, tt.want)
		}
	}
}
