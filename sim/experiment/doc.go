// Package experiment reads ressim experiment files: TOML documents that
// describe a system, its load, and how long to simulate it. The format is
// documented in docs/experiment-format.md.
//
// Reading is strict. Unknown keys are errors, every value is type- and
// range-checked, and cross-references (a client's target service) are
// resolved. Every problem is reported with the file name, the line and
// column of the offending key, the key's dotted path, and what was
// expected; all problems in a file are reported at once, in file order.
// No input makes the loader panic (a fuzz test feeds it arbitrary bytes).
//
// Files may come from people the user does not trust (docs/security.md):
// at most MaxFileSize+1 bytes are read from any source, and a linear
// pre-scan bounds nesting depth (MaxDepth), key length (MaxKeyLength) and
// key count (MaxKeys) before the TOML parser, whose cost grows with them,
// sees the text. Every variant and every sweep cell is built and checked,
// so what Load accepts, compare and sweep can run.
//
// The loader produces a topology.Config; everything the file can express is
// validated here so that the model never sees an invalid configuration.
package experiment
