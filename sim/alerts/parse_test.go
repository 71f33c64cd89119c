package alerts

import (
	"slices"
	"testing"
	"time"
)

// promtool 2.42's report of failed tests, as printed for the generated
// files (two ALERTS samples in one line; an alert test with annotations).
const report242 = `Unit Testing:  run.test.yml
  FAILED:
    expr: "ALERTS", time: 25s,
        exp: nil
        got: {__name__="ALERTS", alertname="A", alertstate="pending", service="x,y", severity="page"} 1E+00, {__name__="ALERTS", alertname="B", alertstate="firing"} 1E+00

    expr: "ALERTS", time: 1m5s,
        exp: nil
        got: {__name__="ALERTS", alertname="A", alertstate="firing", service="x,y", severity="page"} 1E+00

    alertname: A, time: 1m5s, 
        exp:[], 
        got:[
            0:
              Labels:{alertname="A", service="x,y", severity="page"}
              Annotations:{summary="say \"hi\" at 3.5/s"}
            ]
`

func TestParseReport(t *testing.T) {
	acts, fired, err := parseReport([]byte(report242))
	if err != nil {
		t.Fatal(err)
	}
	want := []active{
		{25 * time.Second, [][2]string{{"alertname", "A"}, {"service", "x,y"}, {"severity", "page"}}, "pending"},
		{25 * time.Second, [][2]string{{"alertname", "B"}}, "firing"},
		{65 * time.Second, [][2]string{{"alertname", "A"}, {"service", "x,y"}, {"severity", "page"}}, "firing"},
	}
	if !slices.EqualFunc(acts, want, func(a, b active) bool {
		return a.at == b.at && a.state == b.state && slices.Equal(a.labels, b.labels)
	}) {
		t.Errorf("ALERTS samples\n got %v\nwant %v", acts, want)
	}
	if len(fired) != 1 {
		t.Fatalf("fired %v, want one", fired)
	}
	f := fired[0]
	if f.at != 65*time.Second || f.alertname != "A" ||
		!slices.Equal(f.f.labels, [][2]string{{"service", "x,y"}, {"severity", "page"}}) ||
		!slices.Equal(f.f.annotations, [][2]string{{"summary", `say "hi" at 3.5/s`}}) {
		t.Errorf("fired %+v", f)
	}
}

func TestParseReportErrors(t *testing.T) {
	for _, in := range []string{
		"    expr: \"ALERTS\", time: 5x,\n",
		"        got: {a=\"unterminated} 1\n",
		"        got: {a} 1\n",
		"              Labels:alertname=\"A\"\n",
	} {
		if _, _, err := parseReport([]byte(in)); err == nil {
			t.Errorf("parseReport(%q): no error", in)
		}
	}
}

func TestParseDuration(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
	}{
		{"0s", 0}, {"25s", 25 * time.Second}, {"1m5s", 65 * time.Second}, {"500ms", 500 * time.Millisecond},
		{"1h2m3s", time.Hour + 2*time.Minute + 3*time.Second}, {"1d", 24 * time.Hour}, {"2m500ms", 2*time.Minute + 500*time.Millisecond},
	} {
		got, err := parseDuration(c.in)
		if err != nil || got != c.want {
			t.Errorf("parseDuration(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"", "s", "5", "5q"} {
		if _, err := parseDuration(in); err == nil {
			t.Errorf("parseDuration(%q): no error", in)
		}
	}
}

func FuzzParseReport(f *testing.F) {
	f.Add(report242)
	f.Fuzz(func(t *testing.T, s string) {
		parseReport([]byte(s)) // must not panic
	})
}
