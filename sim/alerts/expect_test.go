package alerts

import (
	"testing"
	"time"
)

func TestParseExpect(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Expect
	}{
		{"FallbackServedTooLong fires within 6m", Expect{Alert: "FallbackServedTooLong", Kind: "fires", Limit: 6 * time.Minute}},
		{"GoodputSLO resolves within 7m30s", Expect{Alert: "GoodputSLO", Kind: "resolves", Limit: 450 * time.Second}},
		{"AvailabilitySLONaive silent", Expect{Alert: "AvailabilitySLONaive", Kind: "silent"}},
		{"no false alarms", Expect{Kind: "no-false-alarms"}},
	} {
		got, err := ParseExpect(c.in)
		c.want.Text = c.in
		if err != nil || got != c.want {
			t.Errorf("ParseExpect(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"", "A fires", "A fires within", "A fires within soon", "A fires within -1s", "A loud", "no alarms"} {
		if _, err := ParseExpect(in); err == nil {
			t.Errorf("ParseExpect(%q): no error", in)
		}
	}
}

// TestExpectCheck is a table over one hand-made report: fault f (10 s to
// 20 s) saw A fire 5 s in and resolve 15 s after its end, B pending only;
// the baseline saw C fire.
func TestExpectCheck(t *testing.T) {
	s := time.Second
	r := &Report{
		Faults: []FaultReport{{Label: "f", Start: 10 * s, End: 20 * s, Detections: []Detection{
			{Alert: `A{k="v"}`, Fired: true, FiringAfter: 5 * s, Resolved: true, ResolvedAfter: 15 * s},
			{Alert: "B", PendingAfter: 5 * s, Resolved: true},
		}}},
		Baseline: []Episode{{Alert: "C", Fired: true, Firing: 30 * s}},
	}
	for _, c := range []struct {
		in string
		ok bool
	}{
		{"A fires within 5s", true},
		{"A fires within 4s", false},
		{"A resolves within 15s", true},
		{"A resolves within 14s", false},
		{"B fires within 1h", false},
		{"B silent", true},
		{"A silent", false},
		{"C silent", false},
		{"no false alarms", false},
	} {
		e, err := ParseExpect(c.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := e.Check(r); got.OK != c.ok {
			t.Errorf("%s: ok %v, want %v (%s)", c.in, got.OK, c.ok, got.Detail)
		}
	}
	r.Baseline = nil
	if e, _ := ParseExpect("no false alarms"); !e.Check(r).OK {
		t.Error("no baseline: no false alarms should hold")
	}
}
