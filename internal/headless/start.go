package headless

import (
	"context"
	"fmt"

	"github.com/chromedp/chromedp"
)

// Tries is how many times Start starts Chromium before it gives up.
const Tries = 3

// Options says how Start starts Chromium.
type Options struct {
	// Chrome is the executable (required).
	Chrome string
	// Extra are allocator options after chromedp's defaults and ours
	// (headless, no sandbox, no /dev/shm), e.g. chromedp.WindowSize.
	Extra []chromedp.ExecAllocatorOption
	// Logf, if not nil, is told of each failed try.
	Logf func(format string, args ...any)
}

// Start starts a browser under parent and returns its context, ready for
// chromedp.Do, and the function that stops it (always call it). It
// tries up to Tries times; the error is the last try's. It is safe to
// call from several goroutines: each call starts its own browser.
//
// The browser never uses /dev/shm (--disable-dev-shm-usage): Debian's
// launcher adds that flag only when a test on findmnt's output succeeds,
// and on a machine with /dev/shm mounted twice that test is a shell error.
func Start(parent context.Context, o Options) (context.Context, context.CancelFunc, error) {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(o.Chrome), chromedp.NoSandbox, chromedp.Flag("disable-dev-shm-usage", true))
	opts = append(opts, o.Extra...)
	var err error
	for try := 1; try <= Tries; try++ {
		actx, cancelAlloc := chromedp.NewExecAllocator(parent, opts...)
		bctx, cancelCtx := chromedp.NewContext(actx)
		stop := func() { cancelCtx(); cancelAlloc() }
		if err = chromedp.Do(bctx); err == nil {
			return bctx, stop, nil
		}
		stop()
		if o.Logf != nil {
			o.Logf("headless: start %s, try %d of %d: %v", o.Chrome, try, Tries, err)
		}
		if parent.Err() != nil {
			break
		}
	}
	return nil, nil, fmt.Errorf("headless: start %s: %w", o.Chrome, err)
}
