package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type hysteresisDoc struct {
	Client   string  `json:"client"`
	From     float64 `json:"from_rps"`
	To       float64 `json:"to_rps"`
	Capacity float64 `json:"capacity_rps"`
	Retried  float64 `json:"capacity_if_every_call_retries_rps"`
	Band     struct {
		Found bool     `json:"found"`
		Lo    *float64 `json:"lo_rps"`
		Hi    *float64 `json:"hi_rps"`
	} `json:"band"`
	Points []struct {
		Time    float64 `json:"time_s"`
		Offered float64 `json:"offered_rps"`
		Goodput float64 `json:"goodput_rps"`
		Branch  string  `json:"branch"`
	} `json:"points"`
}

func readHysteresis(t *testing.T, dir string) (hysteresisDoc, []byte) {
	t.Helper()
	return readJSON[hysteresisDoc](t, filepath.Join(dir, "hysteresis.json"))
}

// TestHysteresisStorm is issue 30's hysteresis view on the bundled retry
// storm, with the default ramp (80 to 1600 requests/s and back): a
// bistable band below the capacity of 1000/s, inside the ramp's range,
// whose lower edge is below the capacity every call's retries leave
// (333/s) and whose upper edge is near the capacity; the up branch
// serves the load below the band, the down branch nothing inside it.
// docs/edge.md quotes the band.
func TestHysteresisStorm(t *testing.T) {
	dir := t.TempDir()
	out := runOK(t, "hysteresis", storm, "-o", dir)
	d, _ := readHysteresis(t, dir)
	if !d.Band.Found || d.Band.Lo == nil || d.Band.Hi == nil {
		t.Fatalf("no band:\n%s", out)
	}
	lo, hi := *d.Band.Lo, *d.Band.Hi
	if d.Client != "users" || d.From != 80 || d.To != 1600 || d.Capacity != 1000 {
		t.Fatalf("client %s from %v to %v, capacity %v: want users from 80 to 1600, capacity 1000", d.Client, d.From, d.To, d.Capacity)
	}
	if !(d.From <= lo && lo < hi && hi <= d.To && lo < d.Capacity) {
		t.Errorf("band [%v, %v): want from <= lo < hi <= to, lo < capacity %v", lo, hi, d.Capacity)
	}
	// The band the docs quote: from about a quarter of capacity, under
	// the retried capacity, to just below capacity.
	if !(lo > 150 && lo < d.Retried && hi > 900 && hi <= 1050) {
		t.Errorf("band [%v, %v): want lo in (150, %v), hi in (900, 1050]", lo, hi, d.Retried)
	}
	var up, down int
	for _, p := range d.Points {
		switch {
		case p.Branch == "up" && p.Offered > 100 && p.Offered < lo-50 && p.Goodput < 0.7*p.Offered:
			t.Errorf("up branch at %v rps (t = %v s): goodput %v, want the load served", p.Offered, p.Time, p.Goodput)
		case p.Branch == "down" && p.Offered > lo+100 && p.Offered < hi && p.Goodput > 0.2*p.Offered:
			t.Errorf("down branch at %v rps (t = %v s): goodput %v, want locked in", p.Offered, p.Time, p.Goodput)
		}
		switch p.Branch {
		case "up":
			up++
		case "down":
			down++
		}
	}
	if up != 660 || down != 660 || len(d.Points) != 1380 {
		t.Errorf("%d points, %d up and %d down: want 1380 intervals of 1 s, 660 on each branch", len(d.Points), up, down)
	}
	if _, err := os.Stat(filepath.Join(dir, "hysteresis.png")); err != nil {
		t.Error(err)
	}
	if !strings.Contains(out, "bistable from") {
		t.Errorf("output:\n%s", out)
	}
}

// TestHysteresisDeterministic: the same file, seed and ramp give the
// same bytes of hysteresis.json.
func TestHysteresisDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	args := []string{"hysteresis", storm, "--ramp", "2m", "--hold", "10s", "--no-plots"}
	runOK(t, append(args, "-o", a)...)
	runOK(t, append(args, "-o", b)...)
	_, x := readHysteresis(t, a)
	_, y := readHysteresis(t, b)
	if !bytes.Equal(x, y) {
		t.Fatal("two runs of the same ramp wrote different hysteresis.json")
	}
	c := t.TempDir()
	runOK(t, append(args, "-o", c, "--seed", "2")...)
	if _, z := readHysteresis(t, c); bytes.Equal(x, z) {
		t.Error("another seed wrote the same hysteresis.json")
	}
}

// TestHysteresisUsage: what cannot be ramped is a usage error (exit 2),
// and writes nothing; --estimate prints the plan without running it.
func TestHysteresisUsage(t *testing.T) {
	closed := filepath.Join(t.TempDir(), "closed.toml")
	write(t, closed, "schema = 1\n"+header("60s", "")+
		"[[client]]\nname = \"c\"\ntarget = \"leaf\"\nusers = 10\nthink_time = { dist = \"constant\", mean = \"1s\" }\n"+
		"[[service]]\nname = \"leaf\"\nworkers = 10\nservice_time = { dist = \"constant\", mean = \"1ms\" }\n")
	for _, args := range [][]string{
		{"hysteresis"},
		{"hysteresis", storm, "--client", "nobody"},
		{"hysteresis", storm, "--from", "900", "--to", "500"},
		{"hysteresis", storm, "--from", "-1"},
		{"hysteresis", storm, "--to", "0"},
		{"hysteresis", storm, "--to", "2e9"},
		{"hysteresis", storm, "--ramp", "0s"},
		{"hysteresis", storm, "--hold", "-1s"},
		{"hysteresis", storm, "--threshold", "1"},
		{"hysteresis", storm, "--bins", "0"},
		{"hysteresis", storm, "--seed", "9223372036854775807"},
		{"hysteresis", storm, "--ramp", "1000h"},
		{"hysteresis", closed},
	} {
		dir := filepath.Join(t.TempDir(), "out")
		code, _, e := ressim(append(args, "-o", dir)...)
		if code != exitInvalid {
			t.Errorf("ressim %s: exit %d, want %d\n%s", strings.Join(args, " "), code, exitInvalid, e)
		}
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("ressim %s wrote %s", strings.Join(args, " "), dir)
		}
	}
	out := runOK(t, "hysteresis", storm, "--estimate", "--ramp", "1m")
	if !strings.Contains(out, "from 80 to 1600 rps and back") || !strings.Contains(out, "events (estimate)") {
		t.Errorf("--estimate printed:\n%s", out)
	}
}
