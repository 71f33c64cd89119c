package callgraph

import "sort"

// interval is a span of time in nanoseconds, [start, end].
type interval struct{ start, end int64 }

// ownTime returns the part of [start, end] not covered by the union of
// ivs (each clipped to it), leaving out any gap between two covered
// stretches longer than thinkGap ns (thinkGap <= 0: none); long reports
// whether a gap was left out. ivs is sorted in place.
func ownTime(start, end int64, ivs []interval, thinkGap int64) (own int64, long bool) {
	sort.Slice(ivs, func(i, j int) bool {
		if ivs[i].start != ivs[j].start {
			return ivs[i].start < ivs[j].start
		}
		return ivs[i].end < ivs[j].end
	})
	cur, seen := start, false
	for _, iv := range ivs {
		s, e := max(iv.start, start), min(iv.end, end)
		if e <= s || e <= cur {
			continue
		}
		if s > cur {
			gap := s - cur
			if seen && thinkGap > 0 && gap > thinkGap {
				long = true
			} else {
				own += gap
			}
		}
		cur, seen = e, true
	}
	if end > cur {
		own += end - cur
	}
	return own, long
}
