package topology

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/dist"
	"github.com/ressim/ressim/sim/queueing"
)

var update = flag.Bool("update", false, "rewrite docs/validation.md's table from this run")

// oracleSeeds runs per case; the metric is averaged over them.
const oracleSeeds = 4

// oracleCheck is one simulated metric against its exact value.
//
// Tolerances: rsd is the relative standard deviation of the metric from
// ONE run of about 1e6 customers, measured over 20 independent seeds of
// these exact cases (2026-12-02; docs/validation.md lists them, from 0.5 % for the Erlang B blocking probability to 3.0 % for the M/M/10 mean wait at utilisation 0.9).
// Averaging oracleSeeds runs of n customers each, the standard error is
// rsd * sqrt(1e6 / (oracleSeeds * n)); the test allows 4 standard errors,
// so a correct model fails with probability about 6e-5 per check, while a
// modelling error of a few per cent (a wrong queue discipline, an
// off-by-one in the servers, a biased sampler) fails reliably.
type oracleCheck struct {
	metric string
	exact  float64
	rsd    float64 // relative SD of one 1e6-customer run
	get    func(measures) float64
}

func TestQueueingOracles(t *testing.T) {
	mustF := func(x float64, err error) float64 {
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	mm1 := queueing.MMc{Lambda: 50, Mu: 100, C: 1}
	mm10 := queueing.MMc{Lambda: 900, Mu: 100, C: 10}
	k20 := queueing.MMcK{Lambda: 900, Mu: 100, C: 10, K: 20}
	wq := func(m measures) float64 { return m.wq }
	w := func(m measures) float64 { return m.w }
	cases := []struct {
		c      oracleCase
		label  string
		checks []oracleCheck
	}{
		{
			oracleCase{"mm1", 50, 1, -1, exp(10 * ms), 20000 * time.Second, 0, AtDequeue},
			"M/M/1, λ 50/s, μ 100/s",
			[]oracleCheck{
				{"Wq (s)", mustF(mm1.Wq()), 0.0055, wq},
				{"W (s)", mustF(mm1.W()), 0.0032, w},
				{"p99(W) (s)", mustF(queueing.SojournQuantileMM1(50, 100, 0.99)), 0.0071, func(m measures) float64 { return m.p99w }},
			},
		},
		{
			oracleCase{"mm10", 900, 10, -1, exp(10 * ms), 1111 * time.Second, 0, AtDequeue},
			"M/M/10 (Erlang C), λ 900/s",
			[]oracleCheck{
				{"P(wait)", mustF(mm10.PWait()), 0.0074, func(m measures) float64 { return m.pWait }},
				{"Wq (s)", mustF(mm10.Wq()), 0.030, wq},
				{"W (s)", mustF(mm10.W()), 0.0125, w},
			},
		},
		{
			oracleCase{"erlangb", 900, 10, 0, exp(10 * ms), 1111 * time.Second, 0, AtDequeue},
			"M/M/10/10 (Erlang B), λ 900/s",
			[]oracleCheck{
				{"P(block)", mustF(queueing.ErlangB(10, 9)), 0.0053, func(m measures) float64 { return m.pBlock }},
			},
		},
		{
			oracleCase{"mm10k20", 900, 10, 10, exp(10 * ms), 1111 * time.Second, 0, AtDequeue},
			"M/M/10/20, λ 900/s",
			[]oracleCheck{
				{"P(block)", mustF(k20.PBlock()), 0.0185, func(m measures) float64 { return m.pBlock }},
				{"Wq admitted (s)", mustF(k20.Wq()), 0.010, wq},
			},
		},
		{
			oracleCase{"erlanga", 1000, 10, -1, exp(10 * ms), 1000 * time.Second, 50 * ms, AtDequeue},
			"Erlang A (M/M/10+M), λ 1000/s, θ 20/s",
			[]oracleCheck{
				// RSD 0.88 % measured over 12 seeds of 1e6 customers.
				{"P(abandon)", mustF(queueing.ErlangA{Lambda: 1000, Mu: 100, Theta: 20, C: 10}.PAbandon()), 0.0088,
					func(m measures) float64 { return m.pAbandon }},
			},
		},
		{
			oracleCase{"md1", 90, 1, -1, dist.Params{Kind: dist.Constant, Mean: 10 * ms}, 11111 * time.Second, 0, AtDequeue},
			"M/D/1, λ 90/s, S = 10 ms",
			[]oracleCheck{
				{"Wq (s)", mustF(queueing.MG1Wq(90, 0.01, 0.0001)), 0.013, wq},
			},
		},
	}
	var table strings.Builder
	table.WriteString("| model | metric | exact | simulated | error | tolerance (4 SE) | Little's law residual |\n")
	table.WriteString("| --- | --- | --- | --- | --- | --- | --- |\n")
	for _, tc := range cases {
		var runs []measures
		var customers uint64
		for seed := uint64(1); seed <= oracleSeeds; seed++ {
			m := runOracle(t, tc.c, seed)
			runs = append(runs, m)
			customers += m.customers
			// Little's law on the same sample path: L = lambda_eff * W.
			// Only the requests in the system at the window's two edges
			// escape the identity: about L/N relative, ~1e-5 here. (With
			// abandonment, L counts the abandoning requests' waits, which
			// the completed requests' W does not: the check is skipped.)
			if res := math.Abs(m.l-m.lambdaEff*m.w) / m.l; tc.c.patience == 0 && res > 0.005 {
				t.Errorf("%s seed %d: Little's law: L %.6g, lambda*W %.6g (residual %.2g > 0.5 %%)",
					tc.c.name, seed, m.l, m.lambdaEff*m.w, res)
			}
		}
		maxLittle := 0.0
		for _, m := range runs {
			maxLittle = math.Max(maxLittle, math.Abs(m.l-m.lambdaEff*m.w)/m.l)
		}
		little := fmt.Sprintf("%.1e", maxLittle)
		if tc.c.patience > 0 {
			little = "n/a (abandonment)"
		}
		for _, chk := range tc.checks {
			sum := 0.0
			for _, m := range runs {
				sum += chk.get(m)
			}
			got := sum / float64(len(runs))
			tol := 4 * chk.rsd * math.Sqrt(1e6/float64(customers))
			rel := (got - chk.exact) / chk.exact
			if math.Abs(rel) > tol {
				t.Errorf("%s %s: simulated %.6g, exact %.6g: error %+.2f %% exceeds %.2f %%",
					tc.c.name, chk.metric, got, chk.exact, 100*rel, 100*tol)
			}
			fmt.Fprintf(&table, "| %s | %s | %.6g | %.6g | %+.2f %% | ±%.2f %% | %s |\n",
				tc.label, chk.metric, chk.exact, got, 100*rel, 100*tol, little)
		}
	}
	syncValidationDoc(t, table.String())
}

// syncValidationDoc keeps docs/validation.md's table equal to what this
// test measured (the runs are deterministic): with -update it rewrites the
// table, otherwise a stale table fails the test.
func syncValidationDoc(t *testing.T, table string) {
	syncDocTable(t, "ORACLE TABLE", "TestQueueingOracles", table)
}

// syncDocTable keeps the part of docs/validation.md between the markers
// "<!-- BEGIN name -->" and "<!-- END name -->" equal to table, which the
// test named test measured: with -update it rewrites it, otherwise a
// stale table fails the test.
func syncDocTable(t *testing.T, name, test, table string) {
	begin, end := "<!-- BEGIN "+name+" -->\n", "<!-- END "+name+" -->"
	path := filepath.Join("..", "..", "docs", "validation.md")
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(doc)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("%s: markers %q and %q not found", path, begin, end)
	}
	want := s[:i+len(begin)] + table + s[j:]
	if want == s {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s is out of date; run: go test ./sim/topology -run %s -update\nmeasured:\n%s", path, test, table)
}
