package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/ressim/ressim/internal/promtool/promtooltest"
)

// commandCases are issue 23's hostile inputs to the commands built beside
// the guard of run, compare and sweep: alerts and lint --simulate, which
// now go through the runner (sim/run/runner) with budget flags of their
// own, and the files they read (rules, FIFOs, devices).
func commandCases(t *testing.T, dir string) []hostileCase {
	leaf := "[[service]]\nname = \"leaf\"\nworkers = 10\nservice_time = { dist = \"constant\", mean = \"1ms\" }\n"
	client := "[[client]]\nname = \"c\"\ntarget = \"leaf\"\nrate = 10\n"
	rules := filepath.Join(dir, "rules.yml")
	write(t, rules, "groups:\n- name: g\n  rules:\n  - alert: Busy\n    expr: vector(1) > 2\n")
	fifo := filepath.Join(dir, "rules-fifo.yml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	// 15 lines: a queue without capacity, overloaded for an hour.
	queue := filepath.Join(dir, "alerts-queue.toml")
	write(t, queue, "schema = 1\n"+header("1h", "")+
		"[[client]]\nname = \"c\"\ntarget = \"slow\"\nrate = 200000\n"+
		"[[service]]\nname = \"slow\"\nworkers = 1\nservice_time = { dist = \"constant\", mean = \"1s\" }\n")
	// 160 bytes, valid: 10^6 intervals of series, 4.6 GB of metrics.om
	// on main.
	intervals := filepath.Join(dir, "million-intervals.toml")
	write(t, intervals, "schema = 1\n"+header("1000s", "interval = \"1ms\"")+client+leaf)
	// 100 variants, each a full set of lint --simulate's scenarios at
	// their event cap.
	var variants strings.Builder
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&variants, "[[variant]]\nname = \"v%d\"\nset = { \"service.leaf.workers\" = %d }\n", i, i+1)
	}
	busy := filepath.Join(dir, "hundred-variants.toml")
	write(t, busy, "schema = 1\n"+header("60s", "")+
		"[[client]]\nname = \"c\"\ntarget = \"leaf\"\nrate = 100000\ntimeout = \"100ms\"\nretry = { attempts = 3 }\n"+leaf+variants.String())
	partFIFO := filepath.Join(dir, "partial-fifo.jsonl")
	if err := syscall.Mkfifo(partFIFO, 0o644); err != nil {
		t.Fatal(err)
	}
	grpc := filepath.Join(dir, "service_config.json")
	write(t, grpc, `{"methodConfig":[{"name":[{"service":"shop.Cart"}],"timeout":"1s"}]}`)
	// 4.5 MB, 200 000 one-sample series: twice the fit's series budget.
	var many strings.Builder
	for i := 0; i < 200000; i++ {
		fmt.Fprintf(&many, "m{i=\"%d\"} 1\n", i)
	}
	manySeries := filepath.Join(dir, "many-series.prom")
	write(t, manySeries, many.String())
	oneScrape := filepath.Join(dir, "one-scrape.prom")
	write(t, oneScrape, "ressim_service_requests_total{service=\"a\"} 10\n")
	// One run of 10^10 events (a day at 100 000 requests/s, with a
	// fault): the search's 96 runs are refused before the first.
	day := filepath.Join(dir, "margin-day.toml")
	write(t, day, "schema = 1\n"+header("24h", "")+
		"[[client]]\nname = \"c\"\ntarget = \"leaf\"\nrate = 100000\n"+leaf+
		"[[fault]]\nkind = \"latency\"\ntarget = \"leaf\"\nstart = \"1h\"\nduration = \"10s\"\nmultiply = 5\n")
	// One service with a million queue places and a retry
	// orbit, a Markov chain of 10^6 x M states.
	bigChain := filepath.Join(dir, "big-chain.toml")
	write(t, bigChain, "schema = 1\n[experiment]\nname = \"big\"\nduration = \"10m\"\n"+
		"[[client]]\nname = \"users\"\ntarget = \"api\"\nrate = 7\ntimeout = \"1s\"\nretry = { attempts = 3, backoff = \"constant\", base = \"500ms\" }\n"+
		"[[service]]\nname = \"api\"\nworkers = 1\nqueue_capacity = 1000000\nservice_time = { dist = \"exponential\", mean = \"100ms\" }\n")
	// The exact chain of 40 places and 5 attempts (5^40 sequences), and a
	// small one asked for a level over a year of 1 ms observations.
	bigExact := filepath.Join(dir, "big-exact.toml")
	exactFile := func(places int) string {
		return "schema = 1\n[experiment]\nname = \"exact\"\nduration = \"10m\"\ninterval = \"1ms\"\n" +
			"[[client]]\nname = \"users\"\ntarget = \"api\"\nrate = 7\ntimeout = { dist = \"exponential\", mean = \"1s\" }\nretry = { attempts = 5, backoff = \"none\" }\n" +
			fmt.Sprintf("[[service]]\nname = \"api\"\nworkers = 1\nqueue_capacity = %d\nservice_time = { dist = \"exponential\", mean = \"100ms\" }\n", places-1)
	}
	write(t, bigExact, exactFile(40))
	smallExact := filepath.Join(dir, "small-exact.toml")
	write(t, smallExact, exactFile(4))
	cases := []hostileCase{
		{name: "ctmc of an exact chain of 5^40 sequences", args: []string{"ctmc", bigExact, "-o", filepath.Join(dir, "ctmc")}, code: exitInvalid, want: "state space too large"},
		{name: "ctmc level over a year of 1 ms observations", args: []string{"ctmc", smallExact, "--level", "3", "--within", "8760h", "-o", filepath.Join(dir, "ctmc")}, code: exitInvalid, want: "transient analysis too long"},
		{name: "ctmc level above the places", args: []string{"ctmc", smallExact, "--level", "9", "-o", filepath.Join(dir, "ctmc")}, code: exitInvalid, want: "level 9 must be in [1, 4]"},
		{name: "rare fixed-success without a level", args: []string{"rare", smallExact, "--method", "fixed-success", "-o", filepath.Join(dir, "rare")}, code: exitInvalid, want: "set --level"},
		{name: "rare with a negative level", args: []string{"rare", smallExact, "--level", "-3", "-o", filepath.Join(dir, "rare")}, code: exitInvalid, want: "--level must be in"},
		{name: "rare AMS of a day at 100 000 requests/s", args: []string{"rare", day, "--method", "ams", "--level", "5", "-o", filepath.Join(dir, "rare")}, code: exitBudget, want: "events budget refused"},
		{name: "margin of a day at 100 000 requests/s", args: []string{"margin", day, "-o", filepath.Join(dir, "margin")}, code: exitBudget, want: "events budget refused"},
		{name: "margin of a fault not in the file", args: []string{"margin", day, "--fault", "db slow x9", "-o", filepath.Join(dir, "margin")}, code: exitInvalid, want: "no [[fault]] labelled \"db slow x9\" (labels: \"leaf slow x5\")"},
		{name: "margin with no fault to choose", args: []string{"margin", busy, "-o", filepath.Join(dir, "margin")}, code: exitInvalid, want: "no [[fault]]"},
		{name: "ctmc of a FIFO", args: []string{"ctmc", fifo}, code: exitInvalid, want: fifo},
		{name: "ctmc of a queue of 10^6 places", args: []string{"ctmc", bigChain}, code: exitInvalid, want: "state space too large"},
		{name: "rare lock-in of a day at 100 000 requests/s", args: []string{"rare", day, "-o", filepath.Join(dir, "rare")}, code: exitBudget, want: "events budget refused"},
		{name: "rare lock-in by an unknown method", args: []string{"rare", day, "--method", "guess", "-o", filepath.Join(dir, "rare")}, code: exitInvalid, want: "want naive, splitting, ams or fixed-success"},
		{name: "hysteresis of a 130-hour ramp", args: []string{"hysteresis", storm, "--ramp", "130h", "-o", filepath.Join(dir, "hysteresis")}, code: exitBudget, want: "events budget refused"},
		{name: "hysteresis of a ramp past a million intervals", args: []string{"hysteresis", storm, "--ramp", "500h", "-o", filepath.Join(dir, "hysteresis")}, code: exitInvalid, want: "at most 1000000"},
		{name: "hysteresis of a client not in the file", args: []string{"hysteresis", queue, "--client", "nobody", "-o", filepath.Join(dir, "hysteresis")}, code: exitInvalid, want: "no client named \"nobody\""},
		{name: "merge of a FIFO partial", args: []string{"merge", "-o", filepath.Join(dir, "merged"), partFIFO}, code: exitInvalid, want: partFIFO},
		{name: "merge of a folder without partials", args: []string{"merge", "-o", filepath.Join(dir, "merged"), dir}, code: exitInvalid, want: "holds no"},
		{name: "import of a FIFO", args: []string{"import", "grpc", fifo}, code: exitInvalid, want: fifo},
		{name: "import of /dev/zero", args: []string{"import", "envoy", "/dev/zero"}, code: exitInvalid, want: "1 MiB limit"},
		{name: "import --into a FIFO", args: []string{"import", "grpc", grpc, "--into", partFIFO, "--map", "a=b:c"}, code: exitInvalid, want: partFIFO},
		{name: "fit of a FIFO", args: []string{"fit", fifo}, code: exitInvalid, want: fifo},
		{name: "fit of /dev/zero", args: []string{"fit", "/dev/zero", "--max-input", "16MiB"}, code: exitInvalid, want: "16 MiB limit"},
		{name: "fit --traces /dev/zero", args: []string{"fit", oneScrape, "--traces", "/dev/zero", "--max-input", "16MiB"}, code: exitInvalid, want: "/dev/zero"},
		{name: "fit --mapping a FIFO", args: []string{"fit", oneScrape, "--mapping", partFIFO}, code: exitInvalid, want: partFIFO},
		{name: "fit --into a FIFO", args: []string{"fit", oneScrape, "--into", partFIFO}, code: exitInvalid, want: partFIFO},
		{name: "fit of 200 000 series", args: []string{"fit", manySeries}, code: exitInvalid, want: "more than 100000 series"},
		{name: "fit --max-input nonsense", args: []string{"fit", manySeries, "--max-input", "lots"}, code: exitInvalid, want: "--max-input"},
		{name: "lint --simulate on 100 variants", args: []string{"lint", busy, "--simulate"}, code: exitBudget, want: "--max-events"},
		{name: "run --openmetrics of a million intervals", args: []string{"run", intervals, "--openmetrics", "--no-plots", "-o", filepath.Join(dir, "out")},
			code: exitBudget, want: "output budget refused"},
	}
	if promtooltest.Require(t) == "" {
		return cases
	}
	return append(cases,
		hostileCase{name: "alerts on an unbounded queue", args: []string{"alerts", queue, "--rules", rules, "--max-memory", "512MiB"},
			code: exitBudget, want: "queue_capacity"},
		hostileCase{name: "alerts on a million intervals", args: []string{"alerts", intervals, "--rules", rules},
			code: exitBudget, want: "output budget refused"},
		hostileCase{name: "alerts --rules /dev/zero", args: []string{"alerts", intervals, "--rules", "/dev/zero"},
			code: exitInvalid, want: "/dev/zero"},
		hostileCase{name: "alerts --rules a FIFO", args: []string{"alerts", intervals, "--rules", fifo},
			code: exitInvalid, want: fifo},
	)
}
