//go:build unix

package input

import (
	"os"
	"syscall"
)

// openNoWait opens path for reading without blocking: opening a FIFO
// normally waits in the kernel until a writer appears, forever if none
// does. With O_NONBLOCK the open returns at once; Go's poller then makes
// reads wait for data, and a FIFO without a writer reads as empty.
func openNoWait(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
