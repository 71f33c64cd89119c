package main

import (
	"os"
	"strings"
	"testing"
)

// TestValidateStdin reads the experiment from standard input with "-".
func TestValidateStdin(t *testing.T) {
	src, err := os.ReadFile(small)
	if err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() { w.Write(src); w.Close() }()
	old := os.Stdin
	os.Stdin = r
	defer func() { os.Stdin = old; r.Close() }()
	code, out, errOut := ressim("validate", "-")
	if code != exitOK || !strings.HasPrefix(out, "<stdin>: valid (experiment \"small\"") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestValidateDevZero: an endless device fails as too large, exit 2.
func TestValidateDevZero(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	code, _, errOut := ressim("validate", "/dev/zero")
	if code != exitInvalid || errOut != "ressim: /dev/zero:1:1: file is larger than the 1048576-byte (1 MiB) limit\n" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}
