package promapi

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ressim/ressim/internal/input"
)

// span is the minute the tests ask about.
func span() (t0, t1 time.Time) {
	t0 = time.Unix(1700000000, 0)
	return t0, t0.Add(time.Minute)
}

// server answers every request with status and body, counting them
// and handing each request's URL to check.
func server(t *testing.T, status int, body string, check func(r *http.Request)) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		if check != nil {
			check(r)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func TestQueryRange(t *testing.T) {
	t0, t1 := span()
	body := `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"__name__":"up","job":"p"},"values":[[1700000000,"1"],[1700000015,"0"]]}]}}`
	var got http.Request
	srv, _ := server(t, 200, body, func(r *http.Request) { got = *r })
	c := &Client{BaseURL: srv.URL + "/prom/"}
	set, err := c.QueryRange(context.Background(), `up{job="p"}`, t0, t1, 15*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if got.URL.Path != "/prom/api/v1/query_range" || got.Method != http.MethodGet {
		t.Errorf("request %s %s", got.Method, got.URL.Path)
	}
	q := got.URL.Query()
	if q.Get("query") != `up{job="p"}` || q.Get("start") != "2023-11-14T22:13:20Z" || q.Get("end") != "2023-11-14T22:14:20Z" || q.Get("step") != "15" {
		t.Errorf("query parameters %v", q)
	}
	if len(set.Series) != 1 || set.Series[0].ID() != `up{job="p"}` || len(set.Series[0].Points) != 2 || set.Series[0].Points[1].T != 1700000015000 {
		t.Fatalf("set %+v", set.Series)
	}
	if o := set.Series[0].Origin; !strings.HasPrefix(o.File, srv.URL+"/prom/api/v1/query_range?") || o.Line != 0 {
		t.Errorf("origin %v", o)
	}
}

func TestQueryRangeAPIError(t *testing.T) {
	t0, t1 := span()
	srv, _ := server(t, 400, `{"status":"error","errorType":"bad_data","error":"1:4: parse error: unclosed left parenthesis"}`, nil)
	_, err := (&Client{BaseURL: srv.URL}).QueryRange(context.Background(), "up(", t0, t1, time.Second)
	var ae *APIError
	if !errors.As(err, &ae) || ae.Type != "bad_data" || !strings.Contains(err.Error(), "400") {
		t.Fatalf("err = %v, want an *APIError and the status", err)
	}
}

func TestQueryRangeErrorInSuccess(t *testing.T) {
	t0, t1 := span()
	srv, _ := server(t, 200, `{"status":"error","errorType":"timeout","error":"query timed out"}`, nil)
	_, err := (&Client{BaseURL: srv.URL}).QueryRange(context.Background(), "up", t0, t1, time.Second)
	var ae *APIError
	if !errors.As(err, &ae) || ae.Type != "timeout" {
		t.Fatalf("err = %v, want an *APIError", err)
	}
}

func TestQueryRangeNotJSON(t *testing.T) {
	t0, t1 := span()
	srv, _ := server(t, 502, "<html>Bad Gateway</html>", nil)
	_, err := (&Client{BaseURL: srv.URL}).QueryRange(context.Background(), "up", t0, t1, time.Second)
	var ae *APIError
	if err == nil || errors.As(err, &ae) || !strings.Contains(err.Error(), "502") || !strings.Contains(err.Error(), "Bad Gateway") {
		t.Fatalf("err = %v, want the status and the body", err)
	}
}

func TestQueryRangeTooLarge(t *testing.T) {
	t0, t1 := span()
	body := `{"status":"success","data":{"resultType":"matrix","result":[]}}`
	srv, _ := server(t, 200, body, nil)
	c := &Client{BaseURL: srv.URL, MaxBytes: int64(len(body)) - 1}
	if _, err := c.QueryRange(context.Background(), "up", t0, t1, time.Second); !errors.Is(err, input.ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
	c.MaxBytes = int64(len(body))
	if _, err := c.QueryRange(context.Background(), "up", t0, t1, time.Second); err != nil {
		t.Fatalf("a body exactly at the limit: %v", err)
	}
}

func TestQueryRangeSlowServer(t *testing.T) {
	t0, t1 := span()
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := (&Client{BaseURL: srv.URL}).QueryRange(ctx, "up", t0, t1, time.Second)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the context's deadline", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("returned after %v", d)
	}
}

func TestQueryRangeRefusedBeforeSending(t *testing.T) {
	t0, t1 := span()
	srv, n := server(t, 200, `{"status":"success","data":{"resultType":"matrix","result":[]}}`, nil)
	c := &Client{BaseURL: srv.URL}
	tests := []struct {
		name       string
		start, end time.Time
		step       time.Duration
		want       string
	}{
		{"zero step", t0, t1, 0, "not positive"},
		{"negative step", t0, t1, -time.Second, "not positive"},
		{"end before start", t1, t0, time.Second, "before start"},
		{"too many points", t0, t0.Add(11001 * time.Second), time.Second, "11000 points"},
	}
	for _, tc := range tests {
		if _, err := c.QueryRange(context.Background(), "up", tc.start, tc.end, tc.step); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want ...%s...", tc.name, err, tc.want)
		}
	}
	if n.Load() != 0 {
		t.Errorf("%d requests sent", n.Load())
	}
	if _, err := c.QueryRange(context.Background(), "up", t0, t0.Add(11000*time.Second), time.Second); err != nil {
		t.Errorf("exactly 11000 steps: %v", err)
	}
	if _, err := (&Client{BaseURL: "not a url"}).QueryRange(context.Background(), "up", t0, t1, time.Second); err == nil {
		t.Error("a bad base URL was accepted")
	}
}
