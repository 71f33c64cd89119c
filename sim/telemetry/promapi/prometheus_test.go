package promapi

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/ressim/ressim/internal/input"
)

// lockedBuffer collects a process' output for the failure log.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startPrometheus runs a Prometheus scraping itself every second on a
// loopback port and returns its base URL and a channel closed when it
// exits. It is killed when the test ends.
func startPrometheus(t *testing.T, bin string) (string, <-chan struct{}) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	dir := t.TempDir()
	config := fmt.Sprintf("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"+
		"scrape_configs:\n  - job_name: prometheus\n    static_configs:\n      - targets: [%q]\n", addr)
	cfgPath := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(cfgPath, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin,
		"--config.file="+cfgPath,
		"--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+addr,
	)
	out := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		close(exited)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
		if t.Failed() {
			t.Logf("prometheus output:\n%s", out.String())
		}
	})
	return "http://" + addr, exited
}

// poll calls cond every 200ms until it holds, failing the test if ctx
// ends or Prometheus exits first.
func poll(t *testing.T, ctx context.Context, exited <-chan struct{}, what string, cond func() bool) {
	t.Helper()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatalf("waiting for %s: %v", what, ctx.Err())
		case <-exited:
			t.Fatalf("prometheus exited while waiting for %s", what)
		case <-tick.C:
		}
	}
}

// get fetches u and returns the status and body (0 and nil on error).
func get(ctx context.Context, u string) (int, []byte) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, nil
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil
	}
	defer resp.Body.Close()
	body, err := input.Read(u, resp.Body, 1<<20, false)
	if err != nil {
		return 0, nil
	}
	return resp.StatusCode, body
}

// TestRealPrometheus asks a real Prometheus (the prometheus binary on
// PATH) for the up series it scraped from itself. Without the binary it
// is skipped, unless CI is set.
func TestRealPrometheus(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Prometheus server (-short)")
	}
	bin, err := exec.LookPath("prometheus")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set but prometheus is not on PATH: %v", err)
		}
		t.Skip("prometheus not on PATH")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base, exited := startPrometheus(t, bin)
	poll(t, ctx, exited, "/-/ready", func() bool {
		code, _ := get(ctx, base+"/-/ready")
		return code == http.StatusOK
	})
	count := base + "/api/v1/query?query=" + url.QueryEscape(`count_over_time(up{job="prometheus"}[1m])`)
	poll(t, ctx, exited, "three samples of up", func() bool {
		code, body := get(ctx, count)
		if code != http.StatusOK {
			return false
		}
		set, err := ParseQueryRange(count, body)
		if err != nil {
			t.Fatalf("the instant query's answer: %v", err)
		}
		return len(set.Series) == 1 && len(set.Series[0].Points) == 1 && set.Series[0].Points[0].V >= 3
	})
	end := time.Now()
	set, err := (&Client{BaseURL: base}).QueryRange(ctx, "up", end.Add(-time.Minute), end, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Series) != 1 {
		t.Fatalf("%d series, want 1: %+v", len(set.Series), set.Series)
	}
	s := set.Series[0]
	if s.Name != "up" || s.Label("job") != "prometheus" || len(s.Points) < 3 {
		t.Fatalf("series %s with %d points, want up{job=\"prometheus\"} with 3 or more", s.ID(), len(s.Points))
	}
	for _, p := range s.Points {
		if p.V != 1 || p.T < end.Add(-time.Minute).UnixMilli() || p.T > end.UnixMilli()+1 {
			t.Fatalf("point %+v outside the range or not up", p)
		}
	}
	t.Logf("up: %d points, the last at %d ms", len(s.Points), s.Points[len(s.Points)-1].T)
}
