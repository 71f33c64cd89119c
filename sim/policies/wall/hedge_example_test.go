package wall_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/ressim/ressim/sim/policies/hedge"
	"github.com/ressim/ressim/sim/policies/wall"
)

// A server whose first request hangs and whose second answers at once. The
// call is hedged after 20 ms: the hedge answers, wins, and the slow request
// is cancelled, which its handler sees through its request's context. Do
// returns only after both copies have returned.
func ExampleHedger_Do() {
	var requests atomic.Int32
	slowDone := make(chan error, 1)
	srv := serve(func(w http.ResponseWriter, r *http.Request) {
		if requests.Add(1) == 1 { // the slow one: wait until the client gives up
			<-r.Context().Done()
			slowDone <- r.Context().Err()
			return
		}
		io.WriteString(w, "fast")
	})
	defer srv.Close()

	hc := hedge.DefaultConfig()
	hc.Delay = 20 * time.Millisecond // in production: the dependency's p95
	h, err := wall.NewHedger(wall.HedgeConfig{Hedge: hc})
	if err != nil {
		panic(err)
	}
	var body atomic.Value
	err = h.Do(context.Background(), func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
		if err != nil {
			return err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			return err
		}
		body.Store(string(b))
		return nil
	})
	fmt.Println("hedged call:", err, body.Load())
	fmt.Println("slow request:", <-slowDone)
	fmt.Println("requests:", requests.Load())
	// Output:
	// hedged call: <nil> fast
	// slow request: context canceled
	// requests: 2
}
