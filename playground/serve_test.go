//go:build !js

package playground

import (
	"os"
	"testing"
	"time"
)

// TestServeTimeouts: the server Serve runs bounds every phase of a
// connection (on main only the header's reading was, so idle keep-alive
// connections stayed open for ever), and its write timeout leaves time to
// send main.wasm (16 MB) at 27 kB/s (0.2 Mbit/s), a crowded room's share.
func TestServeTimeouts(t *testing.T) {
	srv := newServer(os.DirFS(testSite(t)))
	for name, d := range map[string]time.Duration{
		"ReadHeaderTimeout": srv.ReadHeaderTimeout, "ReadTimeout": srv.ReadTimeout,
		"WriteTimeout": srv.WriteTimeout, "IdleTimeout": srv.IdleTimeout,
	} {
		if d <= 0 {
			t.Errorf("%s is %v: unbounded", name, d)
		}
	}
	const wasmBytes, bytesPerSecond = 16_000_000, 27_000
	if need := wasmBytes * time.Second / bytesPerSecond; srv.WriteTimeout < need {
		t.Errorf("WriteTimeout %v cuts main.wasm off at 27 kB/s (%v needed)", srv.WriteTimeout, need.Round(time.Second))
	}
}
