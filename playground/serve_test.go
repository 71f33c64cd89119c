//go:build !js

package playground

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestServeTimeouts: the server Serve runs bounds every phase of a
// connection (on main only the header's reading was, so idle keep-alive
// connections stayed open for ever), and its write timeout leaves time to
// send main.wasm (16 MB) at 27 kB/s (0.2 Mbit/s), a crowded room's share.
func TestServeTimeouts(t *testing.T) {
	srv := newServer(os.DirFS(testSite(t)), limitConns(nil, 1))
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

// testSite writes a stand-in for a built site (index.html and a main.wasm
// of four bytes) to a temporary folder and returns the folder, which the
// tests serve with os.DirFS, as 'ressim serve --dir' does.
func testSite(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range map[string]string{"index.html": "<!doctype html><title>p</title>", WasmFile: "\x00asm"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// serveTest runs Serve on 127.0.0.1 until the test ends and returns its
// address.
func serveTest(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, os.DirFS(testSite(t))) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return ln.Addr().String()
}

// keepAlive is a client's kept-alive connection to the server.
type keepAlive struct {
	net.Conn
	r *bufio.Reader
}

func dialKeepAlive(t *testing.T, addr string) *keepAlive {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &keepAlive{Conn: c, r: bufio.NewReader(c)}
}

// get asks for / on the connection, keeping it alive, and reads the
// whole answer: its status, or the error that closed the connection.
func (k *keepAlive) get() (int, error) {
	k.SetDeadline(time.Now().Add(10 * time.Second)) // a hung server fails the test instead of hanging it
	if _, err := k.Write([]byte("GET / HTTP/1.1\r\nHost: playground\r\n\r\n")); err != nil {
		return 0, err
	}
	res, err := http.ReadResponse(k.r, nil)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	if _, err := io.Copy(io.Discard, res.Body); err != nil {
		return 0, err
	}
	return res.StatusCode, nil
}

// cappedServer runs the server Serve runs (newServer on limitConns) on
// 127.0.0.1 with a cap of limit connections, changed by adjust if not nil,
// until the test ends. It returns its address and a function waiting for
// the server to report a connection in the state want.
func cappedServer(t *testing.T, limit int, adjust func(*http.Server)) (addr string, await func(want http.ConnState)) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := limitConns(ln, limit)
	srv := newServer(os.DirFS(testSite(t)), l)
	if adjust != nil {
		adjust(srv)
	}
	states := make(chan http.ConnState, 1000)
	hook := srv.ConnState
	srv.ConnState = func(c net.Conn, s http.ConnState) {
		hook(c, s)
		states <- s
	}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	await = func(want http.ConnState) {
		t.Helper()
		for {
			select {
			case s := <-states:
				if s == want {
					return
				}
			case <-time.After(10 * time.Second): // a hang guard, not a measurement
				t.Fatalf("the server never reported a connection %v", want)
			}
		}
	}
	return ln.Addr().String(), await
}

// closedBy reports whether err is the server's closing the connection
// (end of file, reset), not the deadline passing.
func closedBy(err error) bool {
	var ne net.Error
	return err != nil && !(errors.As(err, &ne) && ne.Timeout())
}

// TestServeIdleCap: the server Serve runs, at its cap of connections, all
// of them idle keep-alive ones as a room of browsers leaves them, still
// serves each newcomer at once, on its first request, by closing the
// connection idle longest; the connections it did not close are still
// served. On main before the cap, the 1,030th idle socket under a limit
// of 1,024 descriptors left new visitors waiting.
func TestServeIdleCap(t *testing.T) {
	const limit, extra = 4, 2
	addr, await := cappedServer(t, limit, nil)
	var conns []*keepAlive
	for i := range limit + extra {
		k := dialKeepAlive(t, addr)
		if code, err := k.get(); code != 200 {
			t.Fatalf("connection %d of %d (limit %d): status %d, %v", i+1, limit+extra, limit, code, err)
		}
		await(http.StateIdle) // so that the order of idleness is that of the requests
		conns = append(conns, k)
	}
	if code, err := dialKeepAlive(t, addr).get(); code != 200 {
		t.Fatalf("a newcomer after %d idle connections (limit %d): status %d, %v", limit+extra, limit, code, err)
	}
	await(http.StateIdle)
	// The newcomers took the slots of the extra+1 connections idle longest.
	for i, k := range conns {
		code, err := k.get()
		if closed := i < extra+1; closed != closedBy(err) {
			t.Errorf("connection %d: status %d, error %v; want it closed: %v", i+1, code, err, closed)
		}
	}
}

// TestServeSilentCap: connections that send nothing (a browser's spare
// ones, or a flood) do not hold the cap's slots against a newcomer, even
// with an hour to send their header: the newcomer takes the slot of the
// one silent longest, which is closed.
func TestServeSilentCap(t *testing.T) {
	const limit = 4
	addr, await := cappedServer(t, limit, func(srv *http.Server) { srv.ReadHeaderTimeout = time.Hour })
	var silent []*keepAlive
	for range limit {
		silent = append(silent, dialKeepAlive(t, addr))
		await(http.StateNew)
	}
	if code, err := dialKeepAlive(t, addr).get(); code != 200 {
		t.Fatalf("a newcomer after %d silent connections (limit %d): status %d, %v", limit, limit, code, err)
	}
	silent[0].SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := silent[0].Read(make([]byte, 1)); !closedBy(err) {
		t.Errorf("the connection silent longest: %v; want it closed by the server", err)
	}
}

// TestServeMoreThanMaxConns: Serve itself, with more idle keep-alive
// connections than MaxConns, serves a newcomer at once, and has closed at
// least one old connection per connection over the cap (more only if
// IdleTimeout passed meanwhile).
func TestServeMoreThanMaxConns(t *testing.T) {
	const extra = 8
	addr := serveTest(t)
	var conns []*keepAlive
	for i := range MaxConns + extra {
		k := dialKeepAlive(t, addr)
		if code, err := k.get(); code != 200 {
			t.Fatalf("connection %d of %d: status %d, %v", i+1, MaxConns+extra, code, err)
		}
		conns = append(conns, k)
	}
	if code, err := dialKeepAlive(t, addr).get(); code != 200 {
		t.Fatalf("a newcomer after %d idle connections: status %d, %v", MaxConns+extra, code, err)
	}
	closed := 0
	for _, k := range conns {
		if _, err := k.get(); closedBy(err) {
			closed++
		}
	}
	if closed < extra+1 {
		t.Errorf("%d old connections closed, want at least %d: more than MaxConns (%d) were open", closed, extra+1, MaxConns)
	}
}

// TestServeBoundsDocumented: docs/security.md's table of the playground
// server's bounds states the values of the constants.
func TestServeBoundsDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "security.md"))
	if err != nil {
		t.Fatal(err)
	}
	human := func(d time.Duration) string {
		if d%time.Minute == 0 {
			return fmt.Sprintf("| %d min", d/time.Minute)
		}
		return fmt.Sprintf("| %d s", d/time.Second)
	}
	for name, want := range map[string]string{
		"ReadHeaderTimeout": human(ReadHeaderTimeout),
		"ReadTimeout":       human(ReadTimeout),
		"WriteTimeout":      human(WriteTimeout),
		"IdleTimeout":       human(IdleTimeout),
		"MaxConns":          fmt.Sprintf("| %d |", MaxConns),
	} {
		row := ""
		for _, l := range strings.Split(string(doc), "\n") {
			if strings.Contains(l, "`playground."+name+"`") {
				row = l
			}
		}
		if !strings.Contains(row, want) {
			t.Errorf("%s: row %q lacks %q", name, row, want)
		}
	}
}
