package run

import (
	"github.com/ressim/ressim/sim/topology"
)

// The series compare-timeline.png overlays, by index.
const (
	OverlayGoodput  = iota // all clients' goodput
	OverlayInFlight        // all clients' requests in flight
	OverlayP99             // the first client's answered p99
	NumOverlays
)

// Overlays are a run's series that a comparison's timeline overlays, by
// index (OverlayGoodput, ...).
type Overlays [NumOverlays][]float64

// OverlayColumns are the series compare-timeline.png overlays, taken from
// a run.
func OverlayColumns(res *topology.Result) Overlays {
	var out Overlays
	first := ""
	if len(res.Clients) > 0 {
		first = res.Clients[0].Name
	}
	find := func(entity string, k topology.SeriesKey) []float64 {
		if col := res.Series.Find(entity, k.Name); col != nil {
			return col.Values()
		}
		return nil
	}
	out[OverlayGoodput] = find(topology.TotalEntity, topology.TotalGoodput)
	out[OverlayInFlight] = find(topology.TotalEntity, topology.TotalInFlight)
	out[OverlayP99] = find(first, topology.ClientLatencyP99)
	return out
}
