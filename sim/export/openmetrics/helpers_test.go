package openmetrics

import (
	"bytes"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/topology"
)

const bundled = "../../../experiments/"

// runFile runs a bundled experiment's base model.
func runFile(t testing.TB, file string) *topology.Result {
	t.Helper()
	exp, err := experiment.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	m, err := topology.New(exp.Model)
	if err != nil {
		t.Fatal(err)
	}
	m.RecordHistogramSeries()
	res, err := m.Run()
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func export(t testing.TB, res *topology.Result, opt Options) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, res, opt); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
