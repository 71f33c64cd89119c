// Package input reads the files ressim is handed by its users: experiment
// files, Prometheus rules, partial results, imported configurations,
// mapping files. Any of them may come from a stranger, so every read is
// bounded and no read waits for ever:
//
//   - at most a stated number of bytes is read, so that /dev/zero or an
//     endless pipe fails fast as too large instead of exhausting memory;
//   - a FIFO is opened without waiting for a writer (with none it reads
//     as empty, which is reported as such);
//   - a directory is refused with its name, and Regular refuses anything
//     but a regular file where a file must be read twice or seeked.
//
// The functions are safe for concurrent use; the package holds no state.
package input
