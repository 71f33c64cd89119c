//go:build !unix

package experiment

import "os"

// openNoWait opens path for reading (there are no FIFOs to wait on).
func openNoWait(path string) (*os.File, error) { return os.Open(path) }
