package hysteresis

import "math"

// Branch names of the points (Point.Branch).
const (
	// Up is the first hold at the lowest load and the ramp up.
	Up = "up"
	// Top is the hold at the highest load, between the ramps.
	Top = "top"
	// Down is the ramp down and the last hold at the lowest load.
	Down = "down"
)

// Defaults of the band's test: the branches' goodputs must differ by
// more than 20 % of the offered load, averaged over windows of 1/50 of
// the ramp's range.
const (
	DefaultThreshold = 0.2
	DefaultBins      = 50
	// MaxBins bounds Options.Bins.
	MaxBins = 10000
)

// Sample is one interval's offered load and goodput on a branch.
type Sample struct {
	Offered, Goodput float64
	Branch           string
}

// Bin is one smoothing window of the load axis, [Lo, Hi): each branch's
// mean goodput over the intervals whose offered load falls in it (NaN
// when none does), and whether they differ by more than the threshold.
type Bin struct {
	Lo, Hi             float64
	Up, Down           float64
	UpCount, DownCount int
	Bistable           bool
}

// Region is a run of adjacent bistable bins, [Lo, Hi) in offered load.
type Region struct{ Lo, Hi float64 }

// Band is the result of the band's test.
type Band struct {
	// Bins are the smoothing windows, by load.
	Bins []Bin
	// Regions are the maximal runs of adjacent bistable bins, by load.
	Regions []Region
	// Found says there is a band: Lo and Hi are then the edges of the
	// widest region (the lowest of equally wide ones).
	Found  bool
	Lo, Hi float64
}

// FindBand bins the samples of the up and down branches into bins equal
// windows of offered load over [from, to] (a load at to goes in the last
// one; samples of other branches, or outside [from, to], are left out),
// averages each branch's goodput in each window, and marks a window
// bistable when both branches have samples in it and their mean goodputs
// differ by more than threshold times the window's middle load. The
// band is the widest run of adjacent bistable windows.
func FindBand(samples []Sample, from, to float64, bins int, threshold float64) Band {
	var b Band
	if !(to > from) || bins < 1 {
		return b
	}
	w := (to - from) / float64(bins)
	b.Bins = make([]Bin, bins)
	sumUp := make([]float64, bins)
	sumDown := make([]float64, bins)
	for k := range b.Bins {
		b.Bins[k].Lo = from + w*float64(k)
		b.Bins[k].Hi = from + w*float64(k+1)
	}
	b.Bins[bins-1].Hi = to
	for _, s := range samples {
		if !(s.Offered >= from && s.Offered <= to) || math.IsNaN(s.Goodput) {
			continue
		}
		k := min(int((s.Offered-from)/w), bins-1)
		switch s.Branch {
		case Up:
			sumUp[k] += s.Goodput
			b.Bins[k].UpCount++
		case Down:
			sumDown[k] += s.Goodput
			b.Bins[k].DownCount++
		}
	}
	for k := range b.Bins {
		bin := &b.Bins[k]
		bin.Up, bin.Down = math.NaN(), math.NaN()
		if bin.UpCount > 0 {
			bin.Up = sumUp[k] / float64(bin.UpCount)
		}
		if bin.DownCount > 0 {
			bin.Down = sumDown[k] / float64(bin.DownCount)
		}
		mid := (bin.Lo + bin.Hi) / 2
		bin.Bistable = bin.UpCount > 0 && bin.DownCount > 0 && math.Abs(bin.Up-bin.Down) > threshold*mid
	}
	best := 0 // the widest region's bins
	for k := 0; k < bins; {
		if !b.Bins[k].Bistable {
			k++
			continue
		}
		j := k
		for j+1 < bins && b.Bins[j+1].Bistable {
			j++
		}
		r := Region{Lo: b.Bins[k].Lo, Hi: b.Bins[j].Hi}
		b.Regions = append(b.Regions, r)
		if j-k+1 > best {
			best, b.Found, b.Lo, b.Hi = j-k+1, true, r.Lo, r.Hi
		}
		k = j + 1
	}
	return b
}
