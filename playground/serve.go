//go:build !js

package playground

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"time"
)

// Handler serves the site in fsys (a built site: Build's folder, or the
// copy embedded with -tags playground_embed). Every answer forbids
// content sniffing and framing and keeps the page to its own origin
// (index.html's Content-Security-Policy). A path no file can have (a NUL
// byte, another control character, bad UTF-8: badPath) is answered with
// 400 Bad Request. Safe for concurrent use.
func Handler(fsys fs.FS) http.Handler {
	files := http.FileServer(http.FS(fsys))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-cache")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			http.Error(w, "read-only", http.StatusMethodNotAllowed)
			return
		}
		if badPath(r.URL.Path) {
			http.Error(w, "bad path", http.StatusBadRequest)
			return
		}
		files.ServeHTTP(w, r)
	})
}

// The bounds of Serve ('ressim serve', which a workshop room reaches on
// 0.0.0.0). The server only hands out files: every run happens in the
// visitor's tab (main.wasm calls api.go's and batch.go's entry points
// there, bounded by PageBudget, up to an hour), never on the server. The
// longest legitimate answer is therefore the largest file, main.wasm
// (about 16 MB, sent uncompressed), on a crowded room network.
const (
	// ReadHeaderTimeout bounds reading a request's header, from the
	// connection's acceptance or, on a kept-alive connection, from the
	// next request's first byte: a connection that sends nothing, or
	// trickles a header, is closed after it.
	ReadHeaderTimeout = 10 * time.Second
	// ReadTimeout bounds reading a whole request, header and body. The
	// site takes no bodies (GET and HEAD only), so this bounds the body
	// of a refused POST, which net/http reads and discards to keep the
	// connection (up to 256 KiB); without it a body trickled a byte at a
	// time holds the connection as long as its sender likes. When it
	// passes while an answer is still being written, net/http cancels the
	// request's context, which http.FileServer does not watch: it does not
	// cut a download short.
	ReadTimeout = 30 * time.Second
	// WriteTimeout bounds writing an answer, from the end of its request's
	// header. It must not cut main.wasm off: 10 minutes sends 16 MB at
	// 27 kB/s, about 0.2 Mbit/s, what each of 40 visitors gets from
	// 8 Mbit/s of Wi-Fi when they all load the page at once. It is also
	// how long a reader slower than that may hold a connection.
	WriteTimeout = 10 * time.Minute
	// IdleTimeout closes a kept-alive connection that has had no request
	// for this long. The page asks for its files in one burst and then
	// runs offline, so an idle connection holds a descriptor for nothing.
	IdleTimeout = 30 * time.Second
	// MaxConns is the most connections Serve serves at once; at the cap,
	// a newcomer takes the slot of the connection idle longest (no request
	// yet, or between keep-alive requests), which is closed (connLimit).
	// Each connection holds a descriptor, and another for the file it is
	// sending: 256 hold at most 512 of the 1,024 a process is commonly
	// allowed (ulimit -n), leaving the rest to the process. A room of 40
	// browsers, at most 6 connections each to one host, fits in 240. Go
	// raises the soft descriptor limit to the hard one at start on Unix,
	// so a fixed cap under the usual 1,024 is as good as reading it.
	MaxConns = 256
	// ShutdownGrace is how long Serve lets answers in progress finish
	// once its context is cancelled.
	ShutdownGrace = 5 * time.Second
)

// Serve serves fsys on ln until ctx is cancelled, then shuts down,
// letting answers in progress finish for up to ShutdownGrace. It serves
// at most MaxConns connections at once, with the timeouts above.
func Serve(ctx context.Context, ln net.Listener, fsys fs.FS) error {
	if _, err := fs.Stat(fsys, WasmFile); err != nil {
		return fmt.Errorf("playground: the site has no %s: %w", WasmFile, err)
	}
	l := limitConns(ln, MaxConns)
	srv := newServer(fsys, l)
	done := make(chan error, 1)
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), ShutdownGrace)
		defer cancel()
		done <- srv.Shutdown(sctx)
	}()
	if err := srv.Serve(l); !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("playground: serve: %w", err)
	}
	return <-done
}

// newServer is the server Serve runs on l: Handler(fsys) with the
// timeouts above, telling l which connections are idle.
func newServer(fsys fs.FS, l *connLimit) *http.Server {
	return &http.Server{
		Handler:           Handler(fsys),
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		WriteTimeout:      WriteTimeout,
		IdleTimeout:       IdleTimeout,
		ConnState:         l.connState,
	}
}
