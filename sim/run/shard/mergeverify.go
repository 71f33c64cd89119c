package shard

import (
	"context"
	cryptorand "crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/runner"
	"github.com/ressim/ressim/sim/topology"
)

// MergeOptions are Merge's options.
type MergeOptions struct {
	// OutDir is the output folder; empty means out/<name>/sweep or
	// out/<name>/compare.
	OutDir string
	// Plots draws the figures; SVG writes each as SVG too.
	Plots, SVG bool
	// Jobs is the number of runs the merge makes in parallel; 0 means
	// runtime.NumCPU(). The outputs do not depend on it.
	Jobs int
	// Budget bounds every run the merge makes, together: the units that
	// Verify re-runs, and a comparison's replication 0 of each variant
	// (which the figures need whole). The zero Budget is unbounded.
	Budget runner.Budget
	// Verify is how many units, chosen at random, the merge runs again
	// and compares, byte for byte, with their line in the partial files
	// before writing anything: 0 none, more than the units all of them.
	// The SHA-256 of a unit line guards against corruption only: anyone
	// can edit a line and recompute it. A re-run cannot be forged.
	Verify int
	// VerifySeed, if not nil, chooses the units Verify re-runs (the same
	// seed, the same units, whatever the order of the files). Nil draws a
	// seed from crypto/rand, which whoever wrote the partial files cannot
	// predict; the seed drawn is in MergeOutput.Verified.
	VerifySeed *uint64
	// Progress, if not nil, is called after each run the merge makes,
	// with the number done and the total.
	Progress func(done, total int)
}

func (o MergeOptions) compareOptions() run.CompareOptions {
	return run.CompareOptions{OutDir: o.OutDir, Plots: o.Plots, SVG: o.SVG, Jobs: o.Jobs, Budget: o.Budget, Progress: o.Progress}
}

// Verification is what merge --verify checked: the units it ran again,
// each found identical, byte for byte, to its partial file's line.
type Verification struct {
	// Seed chose the units (MergeOptions.VerifySeed, or drawn).
	Seed uint64
	// Units are the units chosen, increasing (unit u is replication
	// u / k of cell or variant u % k); Total is the number of units.
	Units []int
	Total int
}

// verifySeed is opt.VerifySeed, or 8 bytes of crypto/rand: a forger
// who knows the algorithm still cannot know which units will be run
// again, so an edited unit escapes with probability (1 - K/units) at
// best, not certainty.
func verifySeed(opt MergeOptions) (uint64, error) {
	if opt.Verify == 0 {
		return 0, nil
	}
	if opt.VerifySeed != nil {
		return *opt.VerifySeed, nil
	}
	var b [8]byte
	if _, err := cryptorand.Read(b[:]); err != nil {
		return 0, fmt.Errorf("merge --verify: drawing a seed: %w", err)
	}
	return binary.LittleEndian.Uint64(b[:]), nil
}

// chooseUnits returns k distinct units of [0, total), increasing, chosen
// by seed alone (all of them if k >= total). The draw is SHA-256 in
// counter mode keyed by the seed, so that it depends on nothing but the
// seed: not on a global generator, the clock, the files' order or a Go
// release. Floyd's algorithm keeps k units, not total.
func chooseUnits(total, k int, seed uint64) []int {
	if k >= total {
		all := make([]int, total)
		for u := range all {
			all[u] = u
		}
		return all
	}
	d := newUnitDraw(seed)
	chosen := make(map[int]bool, k)
	for j := total - k; j < total; j++ {
		t := int(d.below(uint64(j) + 1))
		if chosen[t] {
			t = j
		}
		chosen[t] = true
	}
	out := make([]int, 0, k)
	for u := range chosen {
		out = append(out, u)
	}
	slices.Sort(out)
	return out
}

// unitDraw is a stream of uniform 64-bit numbers: SHA-256 of the seed
// and a block counter.
type unitDraw struct {
	key   [sha256.Size]byte
	block uint64
	buf   [sha256.Size]byte
	off   int
}

func newUnitDraw(seed uint64) *unitDraw {
	var b []byte
	b = append(b, "ressim merge --verify\x00"...)
	b = binary.LittleEndian.AppendUint64(b, seed)
	return &unitDraw{key: sha256.Sum256(b), off: sha256.Size}
}

func (d *unitDraw) uint64() uint64 {
	if d.off == sha256.Size {
		b := binary.LittleEndian.AppendUint64(d.key[:len(d.key):len(d.key)], d.block)
		d.buf, d.block, d.off = sha256.Sum256(b), d.block+1, 0
	}
	x := binary.LittleEndian.Uint64(d.buf[d.off:])
	d.off += 8
	return x
}

// below is uniform in [0, n), n > 0: the numbers under 2^64 mod n are
// drawn again, so that every remainder is equally likely.
func (d *unitDraw) below(n uint64) uint64 {
	low := -n % n // 2^64 mod n
	for {
		if x := d.uint64(); x >= low {
			return x % n
		}
	}
}

// verifier is the units a merge runs again, and where each was read.
type verifier struct {
	v     *Verification // nil without Verify
	why   string        // what the re-runs are, for errors
	units []int         // to re-run, increasing: the chosen, and those always re-run
	refs  []lineRef     // refs[i]: where units[i]'s line was, and its digest
	paths []string
}

// lineRef is one unit line: file paths[file], line number line (from 1,
// the header), and the SHA-256 of its text (without the newline).
type lineRef struct {
	file, line int
	sum        [sha256.Size]byte
}

// newVerifier chooses opt.Verify of j's units (replication u / k of
// model u % k, k = len(j.models)) with seed, plus always, the units the
// merge re-runs anyway (a comparison's replication 0). It first refuses,
// under opt.Budget, re-runs the budget cannot afford, before choosing
// (which holds some 50 bytes per unit): every unit if Verify covers them
// all, else Verify runs of the costliest model, an upper bound like the
// estimate itself.
func newVerifier(j *shardJob, opt MergeOptions, seed uint64, always []int, paths []string) (*verifier, error) {
	k := len(j.batch.Models)
	total := k * j.header.Replications
	v := &verifier{paths: paths}
	switch n := min(opt.Verify, total) + len(always); {
	case len(always) == 0:
		v.why = fmt.Sprintf("re-running %d unit(s) to verify them", n)
	case opt.Verify == 0:
		v.why = "re-running replication 0 of each variant (the figures need their whole results)"
	default:
		v.why = "re-running replication 0 of each variant and the units chosen to verify"
	}
	var plan []runner.PlannedRun
	if opt.Verify >= total {
		for _, m := range j.batch.Models {
			plan = append(plan, runner.PlannedRun{Model: m, Times: j.header.Replications, OnDisk: true})
		}
	} else {
		if opt.Verify > 0 {
			plan = append(plan, runner.PlannedRun{Model: j.batch.Models[j.batch.CostOrder()[0]], Times: opt.Verify, OnDisk: true})
		}
		for _, u := range always {
			plan = append(plan, runner.PlannedRun{Model: j.batch.Models[u%k], Times: 1, OnDisk: true})
		}
	}
	if err := opt.Budget.Check(plan); err != nil {
		return nil, fmt.Errorf("%s: %w", v.why, err)
	}
	if opt.Verify > 0 {
		v.v = &Verification{Seed: seed, Units: chooseUnits(total, opt.Verify, seed), Total: total}
		v.units = append(v.units, v.v.Units...)
	}
	v.units = append(v.units, always...)
	slices.Sort(v.units)
	v.units = slices.Compact(v.units)
	v.refs = make([]lineRef, len(v.units))
	return v, nil
}

// note records that unit u was read at line n of paths[file].
func (v *verifier) note(file, n int, line []byte, u int) {
	if i, ok := slices.BinarySearch(v.units, u); ok {
		v.refs[i] = lineRef{file: file, line: n, sum: sha256.Sum256(line)}
	}
}

// rerun runs every unit of v again under opt.Budget (newVerifier checked
// the estimate) and compares its line, as a shard writes
// it, with the line noted: the first that differs refuses the merge
// (ErrPartial), naming the file, line and unit (label). got, if not nil,
// receives each run's result (serialised).
func (j *shardJob) rerun(ctx context.Context, v *verifier, opt run.CompareOptions, label func(u int) string, got func(u int, res *topology.Result)) error {
	if len(v.units) == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	g := runner.NewMeter(ctx, opt.Budget, j.batch.Models...)
	var mu sync.Mutex
	var firstErr error
	_, cancelled := run.Parallel(ctx, len(v.units), opt.Jobs, func(i int) {
		u, ref := v.units[i], v.refs[i]
		res, d, err := j.batch.RunUnit(u, g)
		var line []byte
		if err == nil {
			line, err = run.UnitLine(u, d)
		}
		switch {
		case err != nil && !run.IsStop(err):
			err = fmt.Errorf("re-running unit %d (%s): %w", u, label(u), err)
		case err != nil:
		case ref.line == 0:
			err = fmt.Errorf("unit %d (%s) was never read", u, label(u)) // a bug: every unit is claimed first
		case sha256.Sum256(line[:len(line)-1]) != ref.sum:
			err = fmt.Errorf("%w: %s:%d: unit %d (%s) differs from the same unit run again here: the line was edited (its checksum recomputed), or written by another build of ressim",
				ErrPartial, v.paths[ref.file], ref.line, u, label(u))
		}
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			if firstErr == nil || (run.IsStop(firstErr) && !run.IsStop(err)) {
				firstErr = err
			}
			cancel()
			return
		}
		if got != nil {
			got(u, res)
		}
	}, opt.Progress)
	if firstErr == nil {
		firstErr = cancelled
	}
	if errors.Is(firstErr, runner.ErrBudget) {
		return fmt.Errorf("%s: %w", v.why, firstErr)
	}
	return firstErr
}
