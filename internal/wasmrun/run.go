package wasmrun

import (
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ressim/ressim/internal/headless"
)

//go:embed fs.js
var fsJS []byte

// Options says what Run runs and where.
type Options struct {
	// Chrome is Chromium's executable (required).
	Chrome string
	// Binary is the js/wasm program (required).
	Binary string
	// Args are its arguments, after its name.
	Args []string
	// Env is its environment, as KEY=VALUE, but for TMPDIR, which is
	// always /tmp (the page's own, empty at start: the host's temporary
	// folder is not under the root).
	Env []string
	// Dir is its working directory, an absolute path (required); the
	// host's files are read at the same paths.
	Dir string
	// Root is the host folder the program may read (required, absolute);
	// nothing outside it is visible.
	Root string
	// ExecJS is Go's wasm_exec.js; empty reads $GOROOT/lib/wasm's.
	ExecJS []byte
	// JSFlags are V8's flags, as Chromium's --js-flags takes them
	// (--perf-basic-prof to profile the compiled code with perf); empty
	// for none.
	JSFlags string
}

// Result is what the program did.
type Result struct {
	Stdout, Stderr string
	// Code is its exit code: 0, what it passed to os.Exit, or 2 when it
	// trapped (Error says how).
	Code int
	// Error is the JavaScript error that ended it without an exit, if any.
	Error string
}

// Run runs the program in a new headless Chromium and waits for it to
// exit or ctx to end. It is safe to call from several goroutines: each
// call starts its own server and browser.
func Run(ctx context.Context, o Options) (Result, error) {
	if o.Chrome == "" || o.Binary == "" || !filepath.IsAbs(o.Dir) || !filepath.IsAbs(o.Root) {
		return Result{}, errors.New("wasmrun: Chrome, Binary, an absolute Dir and an absolute Root are required")
	}
	srv, err := newServer(o)
	if err != nil {
		return Result{}, err
	}
	defer srv.root.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return Result{}, fmt.Errorf("wasmrun: %w", err)
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	defer hs.Close()

	extra := []chromedp.ExecAllocatorOption{chromedp.DisableGPU}
	if o.JSFlags != "" {
		extra = append(extra, chromedp.Flag("js-flags", o.JSFlags))
	}
	bctx, stop, err := headless.Start(ctx, headless.Options{Chrome: o.Chrome, Extra: extra})
	if err != nil {
		return Result{}, fmt.Errorf("wasmrun: %w", err)
	}
	defer stop()
	url := "http://" + ln.Addr().String() + "/" + srv.token + "/"
	if err := chromedp.Do(bctx, chromedp.Navigate(url)); err != nil {
		return Result{}, fmt.Errorf("wasmrun: loading the page: %w", err)
	}
	script, err := runScript(o)
	if err != nil {
		return Result{}, err
	}
	out, err := chromedp.Run(bctx, chromedp.Evaluate[string](script, chromedp.EvalAwaitPromise))
	if err != nil {
		return Result{}, fmt.Errorf("wasmrun: running %s: %w", o.Binary, err)
	}
	var res Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		return Result{}, fmt.Errorf("wasmrun: the page's answer: %w", err)
	}
	return res, nil
}

func newServer(o Options) (*server, error) {
	execJS := o.ExecJS
	if len(execJS) == 0 {
		// The toolchain's own root, as go env reports it: the binary's
		// runtime.GOROOT names the root it was built with, which a copied
		// binary may not have (and which Go 1.24 deprecated).
		root, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			return nil, fmt.Errorf("wasmrun: go env GOROOT, to find Go's wasm_exec.js: %w", err)
		}
		if execJS, err = os.ReadFile(filepath.Join(strings.TrimSpace(string(root)), "lib", "wasm", "wasm_exec.js")); err != nil {
			return nil, fmt.Errorf("wasmrun: Go's wasm_exec.js: %w", err)
		}
	}
	root, err := os.OpenRoot(o.Root)
	if err != nil {
		return nil, fmt.Errorf("wasmrun: %w", err)
	}
	var b [16]byte
	rand.Read(b[:])
	return &server{token: hex.EncodeToString(b[:]), root: root, rootDir: filepath.ToSlash(filepath.Clean(o.Root)),
		binary: o.Binary, execJS: execJS}, nil
}

// runScript starts the program in the page and resolves to its Result
// as JSON once it exits.
func runScript(o Options) (string, error) {
	env := map[string]string{}
	for _, kv := range o.Env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	env["TMPDIR"] = "/tmp"
	argv := append([]string{filepath.Base(o.Binary)}, o.Args...)
	j, err := json.Marshal(map[string]any{"dir": filepath.ToSlash(o.Dir), "root": filepath.ToSlash(o.Root), "argv": argv, "env": env})
	if err != nil {
		return "", fmt.Errorf("wasmrun: %w", err)
	}
	return fmt.Sprintf(`(async (o) => {
	wasmrunFS.start(o.dir, o.root);
	const go = new Go();
	go.argv = o.argv;
	go.env = o.env;
	let code = 0, error = "";
	go.exit = (c) => { code = c; };
	try {
		const { instance } = await WebAssembly.instantiateStreaming(fetch("bin.wasm"), go.importObject);
		await go.run(instance);
	} catch (e) {
		code = 2;
		error = String(e && e.stack || e);
	}
	return JSON.stringify({ Code: code, Error: error, Stdout: wasmrunFS.output(1), Stderr: wasmrunFS.output(2) });
})(%s)`, j), nil
}
