package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/ressim/ressim/internal/wasmrun"
)

func main() {
	chrome := flag.String("chrome", "", "Chromium's executable (default: chromium, chromium-browser or google-chrome on the PATH)")
	root := flag.String("root", "", "the folder the program may read (default: the module holding the current directory)")
	timeout := flag.Duration("timeout", 30*time.Minute, "how long the program may run")
	jsFlags := flag.String("js-flags", "", "V8's flags, as Chromium's --js-flags (e.g. --perf-basic-prof)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: wasmrun [-chrome PATH] [-root DIR] [-timeout D] [-js-flags FLAGS] PROGRAM [ARGS...]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() < 1 {
		flag.Usage()
		os.Exit(2)
	}
	code, err := run(wasmrun.Options{Chrome: *chrome, Root: *root, JSFlags: *jsFlags, Binary: flag.Arg(0), Args: flag.Args()[1:]}, *timeout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasmrun:", err)
		os.Exit(2)
	}
	os.Exit(code)
}

// run completes o from the command line's defaults (Chromium on the
// PATH, the current directory, its module, this environment) and runs it.
func run(o wasmrun.Options, timeout time.Duration) (int, error) {
	var err error
	if o.Chrome == "" {
		if o.Chrome, err = findChrome(); err != nil {
			return 0, err
		}
	}
	if o.Dir, err = os.Getwd(); err != nil {
		return 0, err
	}
	if o.Root == "" {
		o.Root = moduleRoot(o.Dir)
	}
	if o.Root, err = filepath.Abs(o.Root); err != nil {
		return 0, err
	}
	if o.Binary, err = filepath.Abs(o.Binary); err != nil {
		return 0, err
	}
	o.Env = os.Environ()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	res, err := wasmrun.Run(ctx, o)
	if err != nil {
		return 0, err
	}
	os.Stdout.WriteString(res.Stdout)
	os.Stderr.WriteString(res.Stderr)
	if res.Error != "" {
		fmt.Fprintln(os.Stderr, "wasmrun: the program ended with", res.Error)
	}
	return res.Code, nil
}

func findChrome() (string, error) {
	for _, n := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(n); err == nil {
			return p, nil
		}
	}
	return "", errors.New("no chromium, chromium-browser or google-chrome on the PATH; give -chrome")
}

// moduleRoot is the nearest folder at or above dir with a go.mod, or dir.
func moduleRoot(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}
