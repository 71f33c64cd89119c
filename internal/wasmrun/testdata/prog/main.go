// Command prog exercises the file system wasmrun gives a js/wasm program:
// each line it prints is a check TestRun compares. It exits with code 3.
package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	wd, err := os.Getwd()
	check("getwd", err, filepath.Base(wd))
	b, err := os.ReadFile("sub/in.txt")
	check("read host", err, strings.TrimSpace(string(b)))
	_, err = os.ReadFile("../outside.txt")
	fmt.Println("outside the root:", errors.Is(err, fs.ErrNotExist))
	err = os.WriteFile("sub/in.txt", []byte("changed in the page\n"), 0o644)
	b, _ = os.ReadFile("sub/in.txt")
	check("write over host", err, strings.TrimSpace(string(b)))
	names, err := os.ReadDir("sub")
	check("list", err, fmt.Sprint(len(names), " ", names[0].Name()))
	d, err := os.MkdirTemp("", "stage-*")
	check("mkdtemp", err, filepath.Dir(d))
	f, err := os.Create(filepath.Join(d, "a.txt"))
	check("create", err, "")
	for i := range 3 {
		fmt.Fprintf(f, "line %d\n", i)
	}
	check("close", f.Close(), "")
	check("rename", os.Rename(d, d+".done"), "")
	b, err = os.ReadFile(filepath.Join(d+".done", "a.txt"))
	check("read renamed", err, strings.ReplaceAll(string(b), "\n", "|"))
	_, err = os.Stat(d)
	fmt.Println("old name gone:", errors.Is(err, fs.ErrNotExist))
	fmt.Println("remove nonempty:", os.Remove(d+".done") != nil)
	check("remove all", os.RemoveAll(d+".done"), "")
	fmt.Fprintln(os.Stderr, "to standard error")
	os.Exit(3)
}

func check(what string, err error, got string) {
	if err != nil {
		fmt.Println(what+":", "error", err)
		return
	}
	fmt.Println(what+":", got)
}
