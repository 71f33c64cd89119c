package alerts

import (
	"slices"
	"testing"
	"time"
)

// TestEpisodes is a step table: the states of two alerts at evaluations
// 0..6 (every 10 s) and the episodes they make.
func TestEpisodes(t *testing.T) {
	s := time.Second
	steps := []time.Duration{0, 10 * s, 20 * s, 30 * s, 40 * s, 50 * s, 60 * s}
	a := [][2]string{{"alertname", "A"}}
	b := [][2]string{{"alertname", "B"}, {"k", "v"}}
	acts := []active{
		{10 * s, a, "pending"}, {20 * s, a, "firing"}, {30 * s, a, "firing"}, // A: fires, resolves at 40
		{50 * s, a, "pending"}, {60 * s, a, "pending"}, // A again: pending to the end
		{30 * s, b, "pending"}, // B: pending once, never fires
	}
	got := episodes(acts, steps)
	want := []Episode{
		{Alert: "A", Pending: 10 * s, Fired: true, Firing: 20 * s, Resolved: true, End: 40 * s},
		{Alert: `B{k="v"}`, Pending: 30 * s, Resolved: true, End: 40 * s},
		{Alert: "A", Pending: 50 * s},
	}
	if !slices.Equal(got, want) {
		t.Errorf("episodes\n got %+v\nwant %+v", got, want)
	}
	// Fault at 15 s-25 s, horizon 45 s: A detected (pending before the
	// start), fired 5 s in, resolved 15 s after the end; B pending only.
	fr := detect(got, "f", 15*s, 25*s, 45*s)
	wantD := []Detection{
		{Alert: "A", PendingAfter: -5 * s, Fired: true, FiringAfter: 5 * s, Resolved: true, ResolvedAfter: 15 * s},
		{Alert: `B{k="v"}`, PendingAfter: 15 * s, Resolved: true, ResolvedAfter: 15 * s},
	}
	if !slices.Equal(fr.Detections, wantD) {
		t.Errorf("detections\n got %+v\nwant %+v", fr.Detections, wantD)
	}
	// With the horizon at the end (60 s), A's second episode, still
	// pending, makes it unresolved.
	if fr := detect(got, "f", 15*s, 25*s, 60*s); fr.Detections[0].Resolved {
		t.Errorf("A resolved although pending again at the end: %+v", fr.Detections[0])
	}
}
