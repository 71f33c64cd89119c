package experiment

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/topology"
)

// TestLatencyMultiplyFileAndGo: a latency fault's multiply, written in a
// file and set in a Go Config, is accepted by both or refused by both,
// with the same words (topology's doc.go promises a Config the file's
// errors). 0 is refused by both: Go no longer reads it as 1.
func TestLatencyMultiplyFileAndGo(t *testing.T) {
	data, _ := fileWith("", "")
	e, err := Parse("ranges.toml", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(e.Model.Faults, func(f topology.FaultConfig) bool { return f.Kind == topology.LatencyFault })
	g := topology.SettingLatencyMultiply.Range()
	for _, x := range []float64{-1, 0, math.SmallestNonzeroFloat64, 0.5, 1, 1e6, math.Nextafter(1e6, 2e6), math.Inf(1), math.NaN()} {
		file, line := fileWith(string(topology.SettingLatencyMultiply), tomlFloat(x))
		_, ferr := Parse("ranges.toml", []byte(file))
		m := e.Model
		m.Faults = slices.Clone(m.Faults)
		m.Faults[i].Multiply = x
		gerr := m.Validate()
		if (ferr == nil) != (gerr == nil) {
			t.Errorf("multiply = %g: file says %v, Go says %v", x, ferr, gerr)
			continue
		}
		if ferr == nil {
			continue
		}
		want := g.Refusal(x)
		if fe := errorAt(ferr, line, "multiply"); fe == nil || !strings.Contains(fe.Msg, want) {
			t.Errorf("multiply = %g: file error %v, want %q at line %d", x, ferr, want, line)
		}
		if !strings.Contains(gerr.Error(), "multiply "+want) {
			t.Errorf("multiply = %g: Go error %v, want %q", x, gerr, want)
		}
	}
}

// TestLatencyAddOnly: a file's latency fault without multiply is read as
// Multiply 1, which Go must write: the Go zero is refused with the
// message the file gives multiply = 0.
func TestLatencyAddOnly(t *testing.T) {
	data := strings.Replace(everyRange, "multiply = {{fault.latency.multiply:3}}", `add = "5ms"`, 1)
	e, err := Parse("ranges.toml", []byte(placeholder.ReplaceAllString(data, "$2")))
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(e.Model.Faults, func(f topology.FaultConfig) bool { return f.Kind == topology.LatencyFault })
	if f := e.Model.Faults[i]; f.Multiply != 1 || f.Add != 5*time.Millisecond {
		t.Fatalf("read %+v, want Multiply 1 and Add 5ms", f)
	}
	m := e.Model
	m.Faults = slices.Clone(m.Faults)
	m.Faults[i].Multiply = 0
	want := "multiply " + topology.SettingLatencyMultiply.Range().Refusal(0)
	if err := m.Validate(); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Go Multiply 0: err = %v, want %q", err, want)
	}
}

// tomlFloat writes x as a TOML number.
func tomlFloat(x float64) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}
