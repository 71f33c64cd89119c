package run

import (
	"context"
	"runtime"
	"sync"
)

// Parallel calls do(i) for i in [0, n), at most jobs at a time (0: the
// number of CPUs), in any order; the caller stores each result in slot i,
// so the outcome does not depend on jobs. It stops handing out work when
// ctx is cancelled and reports how many calls were started in index order
// before that (those, and only those, ran). progress, if not nil, is
// called after each call, serialised.
func Parallel(ctx context.Context, n, jobs int, do func(i int), progress func(done, total int)) (started int, err error) {
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	idx := make(chan int)
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		done int
	)
	for w := 0; w < min(jobs, max(n, 1)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range idx {
				do(i)
				if progress != nil {
					mu.Lock()
					done++
					progress(done, n)
					mu.Unlock()
				}
			}
		}()
	}
feed:
	for ; started < n; started++ {
		select {
		case idx <- started:
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(idx)
	wg.Wait()
	return started, err
}
