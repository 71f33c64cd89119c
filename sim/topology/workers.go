package topology

import "github.com/ressim/ressim/sim/engine"

// syncWorkers sets the service's pool (svcStats.workers, the workers
// series) to the workers (or async slots) of its instances that are up
// and in rotation, less those a workers fault removed. It runs when the pool changes: at
// the start, at a crash and a restart, and when a workers fault begins or
// ends; never on the event loop's per-request path.
func (s *service) syncWorkers(now engine.Time) {
	n := 0
	for _, in := range s.insts {
		if !in.down() && !in.parked() {
			n += max(in.capacity, 0) // an action can lower it below what a fault removed
		}
	}
	s.st.workers.Add(int64(now), int64(n)-s.st.workers.Value())
}

// setRunning puts the first n instances in rotation and takes the others
// out (an instances action). An instance taken out takes nothing new and
// finishes what it has queued and running; one brought back takes
// traffic, and starts its queued requests, at once.
func (s *service) setRunning(now engine.Time, n int) {
	s.provision(now)
	s.running = n
	for i, in := range s.insts {
		parked := i >= n
		if in.parked() == parked {
			continue
		}
		in.mark(outParked, parked)
		if !parked {
			in.startNext(now)
		}
	}
	s.syncWorkers(now)
}

// provision adds the provisioned capacity's area from provAt to now (the
// part after the warm-up) before an action changes the capacity.
func (s *service) provision(now engine.Time) {
	s.provSet = true
	s.provArea += s.provisionedArea(now)
	s.provAt = now
}

// provisionedArea is the area of the current provisioned capacity from
// provAt to now, the part after the warm-up.
func (s *service) provisionedArea(now engine.Time) float64 {
	from := max(s.provAt, s.m.warmup)
	if now <= from {
		return 0
	}
	return float64(now-from) * float64(s.workers*s.running)
}

// provisioned is the time average over the window of the provisioned
// capacity, workers (or slots) per instance times the instances in
// rotation, as actions set them; faults do not change it. Without an
// action it is the configured capacity exactly.
func (s *service) provisioned() float64 {
	if !s.provSet {
		return float64(s.capacity())
	}
	w := s.m.window()
	if w <= 0 {
		return float64(s.workers * s.running)
	}
	return (s.provArea + s.provisionedArea(s.m.end)) / float64(w)
}
