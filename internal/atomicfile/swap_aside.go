package atomicfile

import "os"

// oldSuffix marks a target set aside by swapAside.
const oldSuffix = "-old"

// swapAside moves b aside (a staging name ending in oldSuffix), a into
// b's place, then the old b to a. Between the first two renames the target
// does not exist; CleanStale renames the set-aside folder back if the
// process dies there.
func swapAside(a, b string) error {
	aside := a + oldSuffix
	if err := os.Rename(b, aside); err != nil {
		return err
	}
	if err := os.Rename(a, b); err != nil {
		os.Rename(aside, b)
		return err
	}
	return os.Rename(aside, a)
}
