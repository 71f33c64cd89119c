package fallback_test

import (
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/policies/fallback"
)

// The recommendations block of a product page. The service fails, so the
// page falls back to the cached (stale) answer; when that cache is down
// too, to the generic top sellers. Later an operator kills the feature and
// the block is hidden, honestly marked. Living on fallback for 5 minutes
// raises the alert.
func Example() {
	f, err := fallback.New(fallback.DefaultConfig())
	if err != nil {
		panic(err)
	}
	cached := fallback.Cached{Present: true, StoredAt: 0}

	at := 15 * time.Minute // the cache entry is 5 min past its 10-min max-age
	a := f.Begin(at, cached)
	a.Fail() // recommendations timed out
	fmt.Println(a.Level(), "stale by", a.Staleness())
	f.Serve(at, a)

	at += time.Minute
	a = f.Begin(at, cached)
	a.Fail() // recommendations down
	a.Fail() // and the cache read failed
	fmt.Println(a.Level(), a.Level().Degraded())
	f.Serve(at, a)

	fmt.Println(f.Kill(at, "recommendations down, INC-42").Killed)
	for i := 1; i <= 5; i++ {
		at += time.Minute
		a = f.Begin(at, cached)
		if c := f.Serve(at, a); c.Changed() {
			fmt.Printf("%v: alert=%v, on fallback since %v\n", c.At, c.To, c.DegradedSince)
		}
	}
	st := f.Stats()
	fmt.Println("fresh", st.Served[fallback.Fresh], "degraded", st.Degraded(), "failed", st.Failed())
	// Output:
	// stale stale by 5m0s
	// generic true
	// true
	// 20m0s: alert=true, on fallback since 15m0s
	// fresh 0 degraded 7 failed 0
}
