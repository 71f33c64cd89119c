//go:build !(linux && (amd64 || arm64))

package atomicfile

// swap puts the folder at a in b's place and b's old content at a. Without
// renameat2 it takes two renames (swapAside): a process killed between
// them leaves the old set aside, which CleanStale restores.
func swap(a, b string) error { return swapAside(a, b) }
