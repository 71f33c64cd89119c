package topology

// pick returns the instance that receives the next attempt, or nil if no
// instance is up.
func (s *service) pick() *instance {
	insts := s.insts
	n := len(insts)
	if n == 1 {
		if !insts[0].usable() {
			return nil
		}
		return insts[0]
	}
	switch s.cfg.Balancer {
	case Random:
		return s.randomUp(s.rng.IntN(n))
	case LeastOutstanding:
		var best *instance
		for i := 0; i < n; i++ {
			in := insts[(s.rr+i)%n]
			if in.usable() && (best == nil || in.outstanding < best.outstanding) {
				best = in
			}
		}
		s.rr = (s.rr + 1) % n
		return best
	case PowerOfTwo:
		a := s.randomUp(s.rng.IntN(n))
		b := s.randomUp(s.rng.IntN(n))
		if a == nil || b == nil {
			return a
		}
		if b.outstanding < a.outstanding {
			return b
		}
		return a
	}
	for i := 0; i < n; i++ {
		in := insts[s.rr]
		s.rr = (s.rr + 1) % n
		if in.usable() {
			return in
		}
	}
	return nil
}

// randomUp returns the first instance that is up at or after index i
// (cyclically), so a down instance's share goes to its successor.
func (s *service) randomUp(i int) *instance {
	n := len(s.insts)
	for k := 0; k < n; k++ {
		if in := s.insts[(i+k)%n]; in.usable() {
			return in
		}
	}
	return nil
}

// usable reports whether callers may send to the instance: up, ready and
// not ejected.
func (in *instance) usable() bool { return !in.down && in.ready && !in.ejected }
