package compare

import (
	"github.com/ressim/ressim/sim/headline"
)

// Finding is the one line the comparison's text output leads with:
// which variants stay locked in and which recover (from the verdicts of
// the first fault), then which differ significantly from the base in
// goodput; without a fault to judge, the goodput finding alone.
func Finding(c *Comparison, stats []MetricStats) string {
	var goodput string
	for _, ms := range stats {
		if ms.Metric.Key == headline.Goodput {
			goodput = metricFinding(c, ms)
		}
	}
	v := c.verdicts()
	switch {
	case v == "variants compared":
		return goodput
	case goodput == "":
		return v
	}
	return v + "; " + goodput
}

// IntervalNote is a note for the text output when the comparison has
// one replication per variant, which gives no interval (and so no *
// marks); "" otherwise.
func IntervalNote(c *Comparison) string {
	if c.Replications >= 2 {
		return ""
	}
	return "note: 1 replication per variant gives no interval and no * marks; --replications 2 or more (or [experiment].replications) gives them"
}
