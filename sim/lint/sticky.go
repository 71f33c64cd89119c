package lint

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ressim/ressim/sim/topology"
)

// sticky notes, for each sticky error fault that fails its share at every
// attempt (rate 1), the retries above its target (RS021): on that share
// every attempt fails, so each retry is load that cannot succeed. It
// reports the path with the most attempts at the target per request.
func (c *checker) sticky() {
	for i, f := range c.m.Faults {
		if f.Sticky == nil || f.Kind != topology.ErrorFault || f.Rate < 1 {
			continue
		}
		var worst Path
		most, at := 1, 0
		for _, p := range c.w.paths {
			j := slices.Index(p.Hops[1:], f.Target)
			if j < 0 {
				continue
			}
			if n := product(p.Attempts[:j+1]); n > most {
				worst, most, at = p, n, j+1
			}
		}
		if most == 1 {
			continue
		}
		s := f.Sticky
		c.add("RS021", "fault."+strconv.Itoa(i)+".sticky.share",
			"%s: a sticky error fault fails the same %g of the %ss at every attempt, and %s makes up to %d attempts at %s per request (%s): on that share every retry fails, %d wasted attempts per failing request, and at most %g of the requests can succeed whatever the retry policy",
			f.ReportLabel(), s.Share, s.By, strings.Join(worst.Hops[:at+1], " -> "), most, f.Target,
			attemptsText(worst.Attempts[:at]), most-1, 1-s.Share)
	}
}

// product multiplies the attempts of layers, saturating as finish does.
func product(attempts []int) int {
	n := 1
	for _, a := range attempts {
		if n > maxAmplification/a {
			return maxAmplification
		}
		n *= a
	}
	return n
}

// attemptsText writes the attempts per layer: "3 x 3".
func attemptsText(attempts []int) string {
	parts := make([]string, len(attempts))
	for i, a := range attempts {
		parts[i] = fmt.Sprint(a)
	}
	return strings.Join(parts, " x ")
}
