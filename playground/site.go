//go:build !js

package playground

import (
	"context"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/ressim/ressim/internal/atomicfile"
	"github.com/ressim/ressim/internal/wasmjump"
)

//go:embed web
var web embed.FS

// Web returns the site's hand-written files (index.html, app.js, gameday.js,
// compare.js, worker.js, style.css): everything but the built files
// (CatalogueFile, wasm_exec.js and main.wasm).
func Web() fs.FS {
	sub, err := fs.Sub(web, "web")
	if err != nil {
		panic(err) // the embedded folder is always there
	}
	return sub
}

// WasmFile, ExecFile and CatalogueFile are the built files of the site.
// CatalogueFile is List's answer, written at build time so that the page
// shows the catalogue and the editor while main.wasm still compiles.
const (
	WasmFile      = "main.wasm"
	ExecFile      = "wasm_exec.js"
	CatalogueFile = "catalogue.json"
)

// Build assembles the site into dir (created if missing): the files of Web,
// CatalogueFile, wasm_exec.js from the Go toolchain and main.wasm compiled from
// playground/wasm with GOOS=js GOARCH=wasm. It needs the go command and
// the module's source (it runs in the module's folder, found with go env
// GOMOD from the current directory). The build is guided by PGOFile.
// Otherwise plain go build: -ldflags=-s -w
// saves only 1.5 % of main.wasm (measured with -trimpath: 15.9 MB against
// 16.1 MB), and -trimpath would not share the build cache with go test.
func Build(ctx context.Context, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("playground: %w", err)
	}
	if err := copyWeb(dir); err != nil {
		return fmt.Errorf("playground: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, CatalogueFile), []byte(JSON(List())), 0o644); err != nil {
		return fmt.Errorf("playground: %w", err)
	}
	root, err := goEnv(ctx, "GOROOT")
	if err != nil {
		return err
	}
	if err := copyExec(root, filepath.Join(dir, ExecFile)); err != nil {
		return fmt.Errorf("playground: %w", err)
	}
	mod, err := goEnv(ctx, "GOMOD")
	if err != nil {
		return err
	}
	if mod == "" || mod == os.DevNull {
		return fmt.Errorf("playground: build main.wasm: run in ressim's source folder (go env GOMOD is empty)")
	}
	out, err := filepath.Abs(filepath.Join(dir, WasmFile))
	if err != nil {
		return fmt.Errorf("playground: %w", err)
	}
	src := filepath.Dir(mod)
	cmd := exec.CommandContext(ctx, "go", "build", "-pgo="+profile(src), "-o", out, "./playground/wasm")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("playground: build main.wasm: %w\n%s", err, b)
	}
	return threadJumps(out)
}

// threadJumps rewrites the built main.wasm with wasmjump.Thread: its
// forward jumps become direct branches instead of trips through each
// function's dispatch loop, which took a fifth of the instructions the
// page's engine executes, a function's reloads of its own arguments
// read a local instead of memory, and the addresses of its arguments'
// slots are folded into the stores' offsets (docs/performance.md, issue
// 31). A module the pass cannot read (a future toolchain writing opcodes
// it does not know) is kept as the go command built it: slower, never
// wrong.
func threadJumps(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("playground: %w", err)
	}
	t, _, err := wasmjump.Thread(b)
	if err != nil {
		return nil
	}
	if err := atomicfile.WriteBytes(path, t); err != nil {
		return fmt.Errorf("playground: %w", err)
	}
	return nil
}

// PGOFile is the CPU profile, relative to the module's folder, that guides
// the compiler for main.wasm as it does for the ressim binary
// (scripts/pgo.sh records it from native runs of every bundled
// experiment). Go cannot profile itself in WebAssembly, but a profile
// names functions and call sites, not machine code, so the native one
// serves: it inlines the hot calls of the request path, and a call is
// what costs most in WebAssembly (docs/performance.md, issue 31).
const PGOFile = "cmd/ressim/default.pgo"

// profile returns the -pgo value for a build in the module's folder
// root: PGOFile's absolute path, or off where the file is missing (a
// source copy without it still builds, unguided).
func profile(root string) string {
	p := filepath.Join(root, filepath.FromSlash(PGOFile))
	if _, err := os.Stat(p); err != nil {
		return "off"
	}
	return p
}

func goEnv(ctx context.Context, key string) (string, error) {
	b, err := exec.CommandContext(ctx, "go", "env", key).Output()
	if err != nil {
		return "", fmt.Errorf("playground: go env %s: %w", key, err)
	}
	return strings.TrimSpace(string(b)), nil
}

// copyWeb writes the files of Web into dir.
func copyWeb(dir string) error {
	return fs.WalkDir(Web(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(Web(), p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, p), b, 0o644)
	})
}

// copyExec copies the toolchain's wasm_exec.js (lib/wasm since Go 1.24,
// misc/wasm before).
func copyExec(goroot, to string) error {
	var last error
	for _, sub := range []string{"lib/wasm", "misc/wasm"} {
		f, err := os.Open(filepath.Join(goroot, sub, ExecFile))
		if err != nil {
			last = err
			continue
		}
		defer f.Close()
		w, err := os.Create(to)
		if err != nil {
			return err
		}
		if _, err := io.Copy(w, f); err != nil {
			w.Close()
			return err
		}
		return w.Close()
	}
	return last
}
