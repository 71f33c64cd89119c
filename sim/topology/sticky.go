package topology

import "time"

// Sticky faults (StickyConfig): failures that stick to a user, a key or
// a request instead of being drawn afresh at every attempt.
//
// Every user request carries two identities, set when it is sent and
// copied to each call and attempt made for it (call.userID, call.keyID,
// attempt.userID, attempt.keyID), retries and downstream calls included:
//
//   - userID: for a closed-loop client's user, closedUser | its number
//     (numbered from 0 over all closed-loop clients in order, so that two
//     clients' users differ); for an open-loop request, 31 random bits, which
//     a fault maps to a user of its population of StickyConfig.Users.
//   - keyID: 32 random bits, which a by-key fault maps to a key of its key
//     space and a by-request fault takes as the request's own identity.
//
// Both are drawn only when the model has a sticky fault, from the
// client's own stream ("sticky/NAME"), so a model without one draws
// exactly what it drew before. A fault's membership test is a hash of
// the identity and the fault's salt (drawn from the stream
// "fault/N/sticky"): fixed for the run, the same for every attempt,
// independent of the order in which requests come.

// closedUser marks a closed-loop user's userID.
const closedUser = 1 << 31

// hasSticky reports whether one of faults is sticky: then the requests
// carry identities.
func hasSticky(faults []FaultConfig) bool {
	for i := range faults {
		if faults[i].Sticky != nil {
			return true
		}
	}
	return false
}

// identify draws u's identities; user, if not nil, is the closed-loop
// user's fixed userID.
func (c *client) identify(u *userReq, user *uint32) {
	if user != nil {
		u.userID = *user
	} else {
		u.userID = c.idRng.Uint32() >> 1
	}
	u.keyID = c.idRng.Uint32()
}

// userSlot is the think-time event's argument for closed-loop user i: a
// pointer to its userID, nil when the model draws no identities.
func (c *client) userSlot(i uint32) *uint32 {
	if c.ids == nil {
		return nil
	}
	return &c.ids[i]
}

// touches reports whether the sticky fault f touches a request with the
// identities (userID, keyID).
func (f *fault) touches(userID, keyID uint32) bool {
	var id uint64
	switch f.cfg.Sticky.By {
	case StickyByUser:
		id = uint64(userID)
		if userID&closedUser == 0 {
			// An open-loop request's user, uniform over the population.
			id = uint64(userID) * f.pop >> 31
		}
	case StickyByKey:
		id = uint64(keyID) * f.pop >> 32
	default:
		id = uint64(keyID)
	}
	h := mix64(mix64(id) ^ f.salt)
	// The top 53 bits, a uniform number in [0, 1), against the share.
	return float64(h>>11)*(1.0/(1<<53)) < f.cfg.Sticky.Share
}

// stickyError reports whether an active sticky error fault fails a.
func (in *instance) stickyError(a *attempt) bool {
	for _, f := range in.sticky {
		if f.cfg.Kind != ErrorFault || !f.touches(a.userID, a.keyID) {
			continue
		}
		if r := f.cfg.Rate; r >= 1 || r > 0 && in.svc.rng.Float64() < r {
			return true
		}
	}
	return false
}

// faultError reports whether the active error faults fail a's handler:
// a sticky one that touches a, then the independent ones' combined rate
// (in that order, which fixes the draws).
func (in *instance) faultError(a *attempt) bool {
	if len(in.sticky) > 0 && in.stickyError(a) {
		return true
	}
	return in.errRate > 0 && in.svc.rng.Float64() < in.errRate
}

// stuck is the drawn work d of a's step, stretched by the sticky latency
// faults that touch a, if the instance has any (small enough to inline:
// the common path pays one length check).
func (in *instance) stuck(a *attempt, d time.Duration) time.Duration {
	if len(in.sticky) > 0 {
		return in.stickyWork(a, d)
	}
	return d
}

// stickyWork is the drawn work d of a's step as the active sticky latency
// faults that touch a stretch it: multiplied, then lengthened.
func (in *instance) stickyWork(a *attempt, d time.Duration) time.Duration {
	for _, f := range in.sticky {
		if f.cfg.Kind != LatencyFault || !f.touches(a.userID, a.keyID) {
			continue
		}
		if k := f.cfg.Multiply; k != 0 && k != 1 {
			d = time.Duration(float64(d)*k + 0.5)
		}
		d += f.cfg.Add
	}
	return d
}

// mix64 is SplitMix64's finaliser: a bijection of uint64 whose output bits
// each depend on every input bit.
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
