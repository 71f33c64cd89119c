package promtooltest

import (
	"bufio"
	"context"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// StartPrometheus runs the Prometheus server prom on the TSDB at db (its
// configuration written into dir), on a free loopback port, until ctx
// ends or the test does, and returns its URL once it logs that it is
// ready. Its samples are kept for 100 years, so a block of simulated
// time in 2026 stays queryable.
func StartPrometheus(ctx context.Context, t testing.TB, prom, dir, db string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	cfg := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(cfg, []byte("global:\n  scrape_interval: 1m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, prom, "--config.file="+cfg, "--storage.tsdb.path="+db,
		"--storage.tsdb.retention.time=100y", "--web.listen-address="+addr)
	logs, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(logs)
	var seen []string
	for sc.Scan() {
		seen = append(seen, sc.Text())
		if strings.Contains(sc.Text(), "Server is ready to receive web requests.") {
			go io.Copy(io.Discard, logs)
			return "http://" + addr
		}
	}
	t.Fatalf("prometheus exited before it was ready:\n%s", strings.Join(seen, "\n"))
	return ""
}
