//go:build !unix

package input

import "os"

// openNoWait opens path for reading; only unix has FIFOs to wait on.
func openNoWait(path string) (*os.File, error) { return os.Open(path) }
