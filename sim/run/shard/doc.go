// Package shard runs a sweep or a comparison in parts and merges them:
// that is its one job. A shard (ressim sweep|compare --shard I/N) runs
// the units AssignUnits deals it and appends each, as it finishes, to
// its partial file (PartialFormat: a header, then one run.UnitLine per
// unit), resuming a killed shard where it stopped; Merge checks every
// partial file of a run (ErrPartial), optionally re-runs units to verify
// them, and writes the outputs the unsharded command writes, byte for
// byte.
//
// It sits above sim/run, whose Batch it runs and whose code writes the
// merged outputs; sim/run never imports it (TestLayering in sim/run).
// See docs/scale-out.md.
package shard
