//go:build !unix

package atomicfile

import "os"

// processAlive reports whether a process with this id may exist; without
// a cheap probe only this process counts as alive, so a concurrent ressim
// writing into the same parent could lose its staging folder.
func processAlive(pid int) bool { return pid == os.Getpid() }
