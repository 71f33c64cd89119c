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
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: wasmrun [-chrome PATH] [-root DIR] [-timeout D] PROGRAM [ARGS...]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() < 1 {
		flag.Usage()
		os.Exit(2)
	}
	code, err := run(*chrome, *root, *timeout, flag.Arg(0), flag.Args()[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasmrun:", err)
		os.Exit(2)
	}
	os.Exit(code)
}

func run(chrome, root string, timeout time.Duration, prog string, args []string) (int, error) {
	var err error
	if chrome == "" {
		if chrome, err = findChrome(); err != nil {
			return 0, err
		}
	}
	dir, err := os.Getwd()
	if err != nil {
		return 0, err
	}
	if root == "" {
		root = moduleRoot(dir)
	}
	if root, err = filepath.Abs(root); err != nil {
		return 0, err
	}
	if prog, err = filepath.Abs(prog); err != nil {
		return 0, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	res, err := wasmrun.Run(ctx, wasmrun.Options{Chrome: chrome, Binary: prog, Args: args, Env: os.Environ(), Dir: dir, Root: root})
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
