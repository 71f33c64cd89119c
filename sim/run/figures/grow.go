package figures

import (
	"strings"

	"github.com/ressim/ressim/sim/report"
)

// WriteGrowing writes f to path through s, making it taller (doubling its
// height in pixels, up to report.MaxSize) while the renderer finds it too
// small for its panels and fault labels (an experiment with many services
// or faults): a figure's size never fails a run.
func WriteGrowing(path string, f report.Figure, s *report.Scratch) error {
	h := f.Height
	if h == 0 {
		h = report.DefaultHeight
	}
	for {
		f.Height = h
		err := s.WriteFile(path, f)
		if err == nil || !strings.Contains(err.Error(), "too small") || h >= report.MaxSize {
			return err
		}
		h = min(2*h, report.MaxSize)
	}
}
