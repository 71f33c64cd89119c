package main

import (
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/ressim/ressim/playground"
)

func newServeCmd() *cobra.Command {
	var addr, dir string
	c := &cobra.Command{
		Use:   "serve",
		Short: "Serve the browser playground on this machine",
		Long: `Serve serves the playground: ressim compiled to WebAssembly in a web page
(docs/playground.md). Every run happens in the browser; the server only
hands out files, so a room can use one laptop's address, offline.

The site comes from, in order: --dir (a folder built with
'go run ./playground/build -o DIR'); the copy compiled into this binary
(built with -tags playground_embed); or it is built now into the user cache
folder, which needs the go command and ressim's source (run it from the
source folder) and takes a few minutes the first time: build it before
you need it.

It listens on --addr (loopback by default; give 0.0.0.0:8080 to serve a
room), prints the URL, and stops cleanly on Ctrl-C (SIGINT) or SIGTERM.
It serves at most 256 connections at once, a newcomer taking the slot of
the one idle longest; closes keep-alive connections idle for 30 s; and
answers a path no file can have (a NUL byte, a control character) with
400 (docs/security.md).`,
		Example: `  ressim serve
  ressim serve --addr 0.0.0.0:8080 --dir dist/playground`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			site, err := siteFS(c, dir)
			if err != nil {
				return err
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return usageError{fmt.Errorf("serve: %w", err)}
			}
			ctx, stop := signalContext(c.Context(), c.ErrOrStderr())
			defer stop()
			fmt.Fprintf(c.OutOrStdout(), "ressim playground on http://%s/ (Ctrl-C stops)\n", ln.Addr())
			if err := playground.Serve(ctx, ln, site); err != nil {
				return err
			}
			fmt.Fprintln(c.OutOrStdout(), "ressim serve: stopped")
			return nil
		},
	}
	c.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on (host:port; port 0 picks a free one)")
	c.Flags().StringVar(&dir, "dir", "", "serve this built site folder instead of the embedded or freshly built one")
	c.MarkFlagDirname("dir")
	return c
}

// siteFS finds the site to serve: --dir, the embedded copy, or a fresh
// build in the user cache folder.
func siteFS(c *cobra.Command, dir string) (fs.FS, error) {
	if dir != "" {
		if _, err := os.Stat(filepath.Join(dir, playground.WasmFile)); err != nil {
			return nil, usageError{fmt.Errorf("serve: --dir %s is not a built playground: %w", dir, err)}
		}
		return os.DirFS(dir), nil
	}
	if site, ok := playground.Embedded(); ok {
		return site, nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	out := filepath.Join(cache, "ressim", "playground")
	fmt.Fprint(c.ErrOrStderr(), buildNotice(out))
	if err := playground.Build(c.Context(), out); err != nil {
		return nil, fmt.Errorf("serve: %w (or give --dir a built site)", err)
	}
	return os.DirFS(out), nil
}

// firstWasmBuild is how long the first build of main.wasm took with an
// empty Go build cache, measured on a 2-core machine (AMD EPYC, go1.26):
// the go command compiles the standard library and ressim for js/wasm.
// Later builds reuse Go's build cache and take seconds (3 s on the same machine).
const firstWasmBuild = "162 s"

// buildNotice is the line serve prints to stderr before it builds the
// site into out. The first time (no main.wasm there yet) it warns that the
// build takes minutes, so a room does not wait on a silent terminal, and
// says how to build before the day.
func buildNotice(out string) string {
	if _, err := os.Stat(filepath.Join(out, playground.WasmFile)); err == nil {
		return fmt.Sprintf("ressim serve: rebuilding the playground in %s (seconds: the go command reuses its build cache)\n", out)
	}
	return fmt.Sprintf("ressim serve: building the playground into %s; the first WebAssembly build takes a few minutes (%s measured on a 2-core machine), seconds after that; to build before the day: go run ./playground/build -o dist/playground, then ressim serve --dir dist/playground\n", out, firstWasmBuild)
}
