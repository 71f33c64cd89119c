//go:build linux && (amd64 || arm64)

package atomicfile

import (
	"os"
	"syscall"
	"unsafe"
)

const (
	atFDCWD        = -100
	renameExchange = 2 // RENAME_EXCHANGE
)

// swap exchanges the folders at a and b in one atomic step
// (renameat2(RENAME_EXCHANGE)); where the file system cannot, it falls
// back to swapAside.
func swap(a, b string) error {
	pa, err := syscall.BytePtrFromString(a)
	if err != nil {
		return err
	}
	pb, err := syscall.BytePtrFromString(b)
	if err != nil {
		return err
	}
	fd := atFDCWD
	_, _, errno := syscall.Syscall6(sysRenameat2, uintptr(fd), uintptr(unsafe.Pointer(pa)),
		uintptr(fd), uintptr(unsafe.Pointer(pb)), renameExchange, 0)
	switch errno {
	case 0:
		return nil
	case syscall.ENOSYS, syscall.EINVAL, syscall.EOPNOTSUPP:
		return swapAside(a, b)
	}
	return &os.LinkError{Op: "renameat2", Old: a, New: b, Err: errno}
}
