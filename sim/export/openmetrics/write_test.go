package openmetrics

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestTimestamp(t *testing.T) {
	for _, c := range []struct {
		ns   int64
		want string
	}{
		{0, "0"},
		{1767225600 * 1e9, "1767225600"},
		{1767225600*1e9 + 5e8, "1767225600.5"},
		{1767225600*1e9 + 1, "1767225600.000000001"},
		{-5e8, "-1.5"},
	} {
		if got := timestamp(c.ns, OpenMetricsText); got != c.want {
			t.Errorf("timestamp(%d) = %s, want %s", c.ns, got, c.want)
		}
	}
	// Prometheus text: whole milliseconds, rounded half up.
	for _, c := range []struct {
		ns   int64
		want string
	}{
		{0, "0"},
		{1767225600*1e9 + 1e8, "1767225600100"},
		{1767225600*1e9 + 4e5, "1767225600000"},
		{1767225600*1e9 + 5e5, "1767225600001"},
		{-4e5, "0"},
		{-6e5, "-1"},
	} {
		if got := timestamp(c.ns, PrometheusText); got != c.want {
			t.Errorf("timestamp(%d, PrometheusText) = %s, want %s", c.ns, got, c.want)
		}
	}
}

func TestEscape(t *testing.T) {
	if got, want := escape("a\\b\"c\nd"), `a\\b\"c\nd`; got != want {
		t.Errorf("escape = %s, want %s", got, want)
	}
	if got, want := labelText([][2]string{{"caller", "client:users"}, {"service", "x\"y"}}), `{caller="client:users",service="x\"y"}`; got != want {
		t.Errorf("labelText = %s, want %s", got, want)
	}
}

// lastSample returns the value and timestamp text of a sample line's last
// occurrence: the line prefix is the sample name with its labels.
func lastSample(t *testing.T, om []byte, prefix string) (float64, string) {
	t.Helper()
	var last string
	for _, l := range strings.Split(string(om), "\n") {
		if strings.HasPrefix(l, prefix+" ") {
			last = l
		}
	}
	f := strings.Fields(last)
	if len(f) != 3 {
		t.Fatalf("no sample %s", prefix)
	}
	v, err := strconv.ParseFloat(f[1], 64)
	if err != nil {
		t.Fatal(err)
	}
	return v, f[2]
}

// TestCountersMatchResult: the good-responses counter over the whole run
// is at least the window's count of full answers, and the requests
// counter over the run is the sum of the per-interval sent counts, which
// the export recovers exactly from rates; the last timestamp is the
// start instant plus the run's duration; bytes are the same on a second
// export.
func TestCountersMatchResult(t *testing.T) {
	res := runFile(t, bundled+"breaker-fallback.toml")
	start := time.Date(2030, 5, 6, 7, 8, 9, 0, time.UTC)
	om := export(t, res, Options{Start: start})
	if !bytes.HasSuffix(om, []byte("# EOF\n")) {
		t.Error("no # EOF at the end")
	}
	if again := export(t, res, Options{Start: start}); !bytes.Equal(om, again) {
		t.Error("two exports of one result differ")
	}
	c := res.Clients[0]
	good, ts := lastSample(t, om, `ressim_client_responses_total{client="`+c.Name+`",outcome="good"}`)
	if want := strconv.FormatInt(start.Add(res.Duration).Unix(), 10); ts != want {
		t.Errorf("last timestamp %s, want %s", ts, want)
	}
	// The window [warm-up, end) is part of the run, so the run's count
	// bounds the window's from above; the warm-up (5 s of 100 at 500/s)
	// adds at most 5 % + a margin of requests.
	if good < float64(c.Good) || good > float64(c.Good)*1.1 {
		t.Errorf("good responses over the run %v, window's %d", good, c.Good)
	}
	sent, _ := lastSample(t, om, `ressim_client_requests_total{client="`+c.Name+`"}`)
	col := res.Series.Find(c.Name, "sent")
	sum := 0.0
	for i := range res.Series.Len() {
		sum += col.Value(i) * float64(res.Series.End(i)-res.Series.Start(i)) / 1e9
	}
	if sent != float64(int64(sum+0.5)) {
		t.Errorf("sent counter %v, integral of the rate %v", sent, sum)
	}
}

// TestDefaultStart: without a start, time 0 is DefaultStart.
func TestDefaultStart(t *testing.T) {
	res := runFile(t, bundled+"breaker-fallback.toml")
	om := export(t, res, Options{})
	_, ts := lastSample(t, om, "ressim_in_flight_requests")
	if want := strconv.FormatInt(DefaultStart.Add(res.Duration).Unix(), 10); ts != want {
		t.Errorf("last timestamp %s, want %s", ts, want)
	}
}

// TestPrometheusTextDialect: the Prometheus text export has the same
// samples as the OpenMetrics one, HELP and TYPE naming a counter's
// samples (_total), no UNIT and no EOF, whole-millisecond timestamps.
func TestPrometheusTextDialect(t *testing.T) {
	res := runFile(t, bundled+"breaker-fallback.toml")
	om := strings.Split(strings.TrimSuffix(string(export(t, res, Options{})), "\n"), "\n")
	prom := strings.Split(strings.TrimSuffix(string(export(t, res, Options{Format: PrometheusText})), "\n"), "\n")
	var omSamples, promSamples []string
	for _, l := range om {
		if !strings.HasPrefix(l, "#") {
			i := strings.LastIndexByte(l, ' ')
			omSamples = append(omSamples, l[:i])
		}
	}
	for _, l := range prom {
		switch {
		case strings.HasPrefix(l, "# UNIT ") || l == "# EOF":
			t.Fatalf("Prometheus text has %q", l)
		case strings.HasPrefix(l, "# TYPE ") && strings.HasSuffix(l, " counter"):
			if f := strings.Fields(l); !strings.HasSuffix(f[2], "_total") {
				t.Errorf("counter TYPE names %s, not its samples", f[2])
			}
		case strings.HasPrefix(l, "#"):
		default:
			i := strings.LastIndexByte(l, ' ')
			if strings.ContainsAny(l[i+1:], ".e") {
				t.Fatalf("timestamp not whole milliseconds: %q", l)
			}
			promSamples = append(promSamples, l[:i])
		}
	}
	if strings.Join(omSamples, "\n") != strings.Join(promSamples, "\n") {
		t.Error("the two formats' samples differ")
	}
}
