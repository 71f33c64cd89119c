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

// Serve serves fsys on ln until ctx is cancelled, then shuts down,
// letting requests in progress finish for up to 5 s.
func Serve(ctx context.Context, ln net.Listener, fsys fs.FS) error {
	if _, err := fs.Stat(fsys, WasmFile); err != nil {
		return fmt.Errorf("playground: the site has no %s: %w", WasmFile, err)
	}
	srv := &http.Server{Handler: Handler(fsys), ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		done <- srv.Shutdown(sctx)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("playground: serve: %w", err)
	}
	return <-done
}
