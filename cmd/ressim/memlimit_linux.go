//go:build linux

package main

import "syscall"

// memoryCeiling returns the bytes this process can hope to use: the
// smaller of its address-space limit (RLIMIT_AS, as `ulimit -v` sets it)
// and the machine's physical memory; 0 when neither is known. An
// unlimited RLIMIT_AS reads as all ones (RLIM_INFINITY).
func memoryCeiling() uint64 {
	var ceiling uint64
	var lim syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_AS, &lim) == nil && lim.Cur != ^uint64(0) {
		ceiling = lim.Cur
	}
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) == nil {
		if ram := uint64(si.Totalram) * uint64(si.Unit); ram > 0 && (ceiling == 0 || ram < ceiling) {
			ceiling = ram
		}
	}
	return ceiling
}
