package callgraph

import (
	"fmt"
	"math"
	"strings"
	"text/tabwriter"
	"time"
)

// Summary writes the graph as text for people: the roots with their
// arrival rates, the services with their request counts and median and
// 99th-percentile durations and own times, the edges with their fan-out,
// and the issues and notes.
func (g *Graph) Summary() string {
	var sb strings.Builder
	requests := 0
	for _, s := range g.Services {
		requests += s.Requests
	}
	fmt.Fprintf(&sb, "call graph: %d services, %d edges, %d requests, %d entry points\n",
		len(g.Services), len(g.Edges), requests, len(g.Roots))
	tw := tabwriter.NewWriter(&sb, 0, 4, 2, ' ', 0)
	if len(g.Roots) > 0 {
		fmt.Fprintln(tw, "\nentry point\tarrivals\trate/s\tover")
		for _, r := range g.Roots {
			a := r.Arrivals
			fmt.Fprintf(tw, "%s %q\t%d\t%.3g\t%s\n", show(r.Service), r.Operation, a.Count, a.Rate, fmtDur(a.End-a.Start))
		}
	}
	if len(g.Services) > 0 {
		fmt.Fprintln(tw, "\nservice\trequests\terrors\tp50\tp99\town p50\town p99\tlong\tops")
		for _, s := range g.Services {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\t%s\t%d\t%d\n", show(s.Name), s.Requests, s.Errors,
				fmtSec(Quantile(s.Durations, 0.5)), fmtSec(Quantile(s.Durations, 0.99)),
				fmtSec(Quantile(s.OwnTimes, 0.5)), fmtSec(Quantile(s.OwnTimes, 0.99)), s.Long, len(s.Ops))
		}
	}
	if len(g.Edges) > 0 {
		fmt.Fprintln(tw, "\nedge\tcalls\terrors\tfan-out\tmax/request\tparallel\tp50\tp99")
		for _, e := range g.Edges {
			par := "no"
			if e.Parallel {
				par = fmt.Sprintf("yes (%d/%d)", e.Overlapping, e.Pairs)
			} else if e.Pairs > 0 {
				par = fmt.Sprintf("no (%d/%d)", e.Overlapping, e.Pairs)
			}
			fmt.Fprintf(tw, "%s → %s\t%d\t%d\t%.3g\t%d\t%s\t%s\t%s\n", show(e.Caller), show(e.Callee), e.Calls, e.Errors, e.FanOut,
				len(e.PerRequest)-1, par, fmtSec(Quantile(e.Latencies, 0.5)), fmtSec(Quantile(e.Latencies, 0.99)))
		}
	}
	tw.Flush()
	for _, s := range g.Issues {
		fmt.Fprintf(&sb, "issue: %s\n", s)
	}
	for _, s := range g.Notes {
		fmt.Fprintf(&sb, "note: %s\n", s)
	}
	return sb.String()
}

// show names a service for the summary, "(unnamed)" for "".
func show(name string) string {
	if name == "" {
		return "(unnamed)"
	}
	return name
}

// Quantile returns the q-quantile (0 <= q <= 1) of sorted, by the
// nearest-rank method, or NaN when sorted is empty.
func Quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// fmtSec writes seconds as a rounded duration, "-" for NaN.
func fmtSec(s float64) string {
	if math.IsNaN(s) {
		return "-"
	}
	return fmtDur(int64(s * 1e9))
}

// fmtDur writes nanoseconds as a duration rounded to three figures.
func fmtDur(ns int64) string {
	d := time.Duration(ns)
	switch {
	case d >= 100*time.Second:
		return d.Round(time.Second).String()
	case d >= 10*time.Second:
		return d.Round(100 * time.Millisecond).String()
	case d >= time.Second:
		return d.Round(10 * time.Millisecond).String()
	case d >= 100*time.Millisecond:
		return d.Round(time.Millisecond).String()
	case d >= 10*time.Millisecond:
		return d.Round(100 * time.Microsecond).String()
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond).String()
	}
	return d.Round(time.Microsecond).String()
}
