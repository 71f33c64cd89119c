package main

import (
	"fmt"
	"os"

	"github.com/ressim/ressim/internal/atomicfile"
	"github.com/ressim/ressim/internal/wasmjump"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: wasmjump IN OUT")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "wasmjump:", err)
		os.Exit(1)
	}
}

func run(in, out string) error {
	b, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	t, st, err := wasmjump.Thread(b)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	fmt.Fprintf(os.Stderr, "wasmjump: %s: %d of %d functions with an entry loop, %d jumps made branches (%d as br_if), %d backward left, %d loops made blocks; %d copies and %d fills written out; %d frame loads forwarded; %d panics' paths ended; %d frame addresses folded, %d tests narrowed; %d bytes, was %d\n",
		in, st.Loops, st.Functions, st.Forward, st.Folded, st.Backward, st.Unlooped, st.Copies, st.Fills, st.Forwarded, st.Exits, st.Offsets, st.Narrowed, len(t), len(b))
	return atomicfile.WriteBytes(out, t)
}
