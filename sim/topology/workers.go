package topology

import "github.com/ressim/ressim/sim/engine"

// syncWorkers sets the service's pool (svcStats.workers, the workers
// series) to the workers (or async slots) of its instances that are up,
// less those a workers fault removed. It runs when the pool changes: at
// the start, at a crash and a restart, and when a workers fault begins or
// ends; never on the event loop's per-request path.
func (s *service) syncWorkers(now engine.Time) {
	n := 0
	for _, in := range s.insts {
		if !in.down {
			n += max(in.capacity, 0) // an action can lower it below what a fault removed
		}
	}
	s.st.workers.Add(int64(now), int64(n)-s.st.workers.Value())
}
