package shard

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ressim/ressim/internal/version"
	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/compare"
	"github.com/ressim/ressim/sim/run/sweep"
)

// PartialPaths expands merge's arguments: files as they are, folders to
// the *.partial.jsonl files in them, and glob patterns to their matches.
// A pattern or folder that matches nothing is an error.
func PartialPaths(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		if st, err := os.Stat(a); err == nil {
			if !st.IsDir() {
				out = append(out, a)
				continue
			}
			m, _ := filepath.Glob(filepath.Join(a, "*.partial.jsonl"))
			if len(m) == 0 {
				return nil, fmt.Errorf("%w: folder %s holds no *.partial.jsonl file", ErrPartial, a)
			}
			out = append(out, m...)
			continue
		}
		m, err := filepath.Glob(a)
		if err != nil || len(m) == 0 {
			return nil, fmt.Errorf("%w: %s: no such file, folder or match", ErrPartial, a)
		}
		out = append(out, m...)
	}
	return out, nil
}

// MergeOutput is what Merge produced: the outputs of a sweep or of a
// comparison (the other is nil), the experiment the partials carry, and
// what MergeOptions.Verify checked (nil without it).
type MergeOutput struct {
	Experiment *experiment.Experiment
	Sweep      *sweep.Output
	Compare    *compare.Output
	Verified   *Verification
}

// Merge merges the partial files at paths (every shard of one sweep or
// comparison) into the outputs the unsharded command writes in opt.OutDir
// (default out/<name>/sweep or compare), with opt.Plots and opt.SVG: the
// same bytes, since it fills the same records in the same order and
// writes them with the same code. It refuses (ErrPartial) corrupt or torn
// files, partials of another experiment file, seed, replications, series,
// shard count or ressim version, units missing or held twice, and with
// opt.Verify a unit whose re-run differs from its line. Every run it makes
// is under opt.Budget (runner.ErrBudget). A refused merge writes nothing.
func Merge(ctx context.Context, paths []string, opt MergeOptions) (*MergeOutput, error) {
	if opt.Verify < 0 {
		return nil, fmt.Errorf("merge: verify must be >= 0, got %d", opt.Verify)
	}
	heads, err := readHeaders(paths)
	if err != nil {
		return nil, err
	}
	h := heads[0]
	exp, err := experiment.Parse(h.FileName, h.File)
	if err != nil {
		return nil, fmt.Errorf("%w: the experiment file inside %s: %w", ErrPartial, paths[0], err)
	}
	seed, err := verifySeed(opt)
	if err != nil {
		return nil, err
	}
	out := &MergeOutput{Experiment: exp}
	if h.Kind == "compare" {
		out.Compare, out.Verified, err = mergeCompare(ctx, exp, h, paths, opt, seed)
	} else {
		out.Sweep, out.Verified, err = mergeSweep(ctx, exp, heads, paths, opt, seed)
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// mergeSweep streams the units of every partial file into the sweep's
// cell spool, one line at a time, re-runs the units opt.Verify chooses
// with seed, and writes the outputs as RunSweep does: its memory grows
// with the cells and the unit ids, not with the records.
func mergeSweep(ctx context.Context, exp *experiment.Experiment, heads []PartialHeader, paths []string, opt MergeOptions, seed uint64) (*sweep.Output, *Verification, error) {
	h := heads[0]
	copt := opt.compareOptions()
	copt.Seed, copt.Replications = &h.Seed, h.Replications
	b, err := sweep.NewBatch(exp, copt)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrPartial, err)
	}
	assign := assignModels(b.Models, b.Replications, h.Shards)
	if err := checkUnitLists(heads, paths, assign); err != nil {
		return nil, nil, err
	}
	j := &shardJob{header: h, batch: b.Batch}
	v, err := newVerifier(j, opt, seed, nil, paths)
	if err != nil {
		return nil, nil, mergeError(exp.Name, err)
	}
	if err := b.Stage(copt); err != nil {
		return nil, nil, fmt.Errorf("merge %s: %w", exp.Name, err)
	}
	defer b.Abort()
	from := make([]int, len(b.Models)*b.Replications)
	for i := range paths {
		if err := spoolPartial(b.Batch, from, heads[i], paths, i, v); err != nil {
			return nil, nil, err
		}
	}
	if err := missingUnits(from, assign); err != nil {
		return nil, nil, err
	}
	if err := j.rerun(ctx, v, copt, b.Label, nil); err != nil {
		return nil, nil, mergeError(exp.Name, err)
	}
	out, err := b.Commit(copt)
	if err != nil {
		return nil, nil, fmt.Errorf("merge %s: %w", exp.Name, err)
	}
	return out, v.v, nil
}

// mergeError names the experiment in an error of a merge's re-runs, but
// for a refusal, which names its file.
func mergeError(name string, err error) error {
	if errors.Is(err, ErrPartial) {
		return err
	}
	return fmt.Errorf("merge %s: %w", name, err)
}

// errRefused stops a scan whose refusal the caller already holds.
var errRefused = errors.New("refused")

// spoolPartial adds the units of paths[i] (whose header is h) to the
// sweep b, claiming each in from and noting each in v.
func spoolPartial(b *run.Batch, from []int, h PartialHeader, paths []string, i int, v *verifier) error {
	k := len(from) / max(b.Replications, 1)
	var refusal error
	_, torn, err := scanPartialAt(paths[i], func(n int, line []byte, u int, d run.Unit) error {
		if refusal = claimUnit(from, h, u, paths, i); refusal != nil {
			return errRefused
		}
		v.note(i, n, line, u)
		if rep := u / k; d.Record.Replication != rep {
			refusal = fmt.Errorf("%w: corrupt: %s: unit %d records replication %d, want %d", ErrPartial, paths[i], u, d.Record.Replication, rep)
			return errRefused
		}
		return b.Add(u, d)
	})
	switch {
	case refusal != nil:
		return refusal
	case err != nil:
		return fmt.Errorf("%w: corrupt: %w", ErrPartial, err)
	case torn:
		return fmt.Errorf("%w: %s ends in a torn line: its shard was killed while writing; re-run the shard to resume it", ErrPartial, paths[i])
	}
	return nil
}

// readHeaders reads every file's header and checks that they are of one
// run, made by this version of ressim.
func readHeaders(paths []string) ([]PartialHeader, error) {
	if len(paths) == 0 {
		return nil, fmt.Errorf("%w: no partial file given", ErrPartial)
	}
	var heads []PartialHeader
	for _, p := range paths {
		h, _, err := scanPartial(p, nil)
		if err != nil {
			return nil, refusedRead(err)
		}
		if err := checkHeader(p, h, paths[0], heads); err != nil {
			return nil, err
		}
		heads = append(heads, h)
	}
	return heads, nil
}

// refusedRead is the merge's refusal of a partial file it could not
// read (err from scanPartial): unreadable, or corrupt.
func refusedRead(err error) error {
	if errors.Is(err, errUnreadable) {
		return fmt.Errorf("%w: %w", ErrPartial, err)
	}
	return fmt.Errorf("%w: corrupt: %w", ErrPartial, err)
}

// readPartials reads every file and checks that they are whole and of
// one run, made by this version of ressim; it notes each unit line in v.
func readPartials(paths []string, v *verifier) ([]*partialFile, error) {
	if len(paths) == 0 {
		return nil, fmt.Errorf("%w: no partial file given", ErrPartial)
	}
	var parts []*partialFile
	var heads []PartialHeader
	for i, p := range paths {
		pf, err := readPartialAt(p, func(n int, line []byte, u int) { v.note(i, n, line, u) })
		if err != nil {
			return nil, refusedRead(err)
		}
		if pf.Torn {
			return nil, fmt.Errorf("%w: %s ends in a torn line: its shard was killed while writing; re-run the shard to resume it", ErrPartial, p)
		}
		if err := checkHeader(p, pf.Header, paths[0], heads); err != nil {
			return nil, err
		}
		parts = append(parts, pf)
		heads = append(heads, pf.Header)
	}
	return parts, nil
}

// checkHeader checks header h of file p, and that it is of the same run
// as heads, those of the files before it (the first at path first).
func checkHeader(p string, h PartialHeader, first string, heads []PartialHeader) error {
	sum := sha256.Sum256(h.File)
	if (h.Kind != "sweep" && h.Kind != "compare") || hex.EncodeToString(sum[:]) != h.FileSHA256 {
		return fmt.Errorf("%w: corrupt: %s: kind %q, or its experiment file does not match its SHA-256", ErrPartial, p, h.Kind)
	}
	if h.Shards < 1 || h.Shards > MaxShards || h.Replications < 1 || h.Replications > experiment.MaxReplications {
		return fmt.Errorf("%w: corrupt: %s: %d shards, %d replications out of range", ErrPartial, p, h.Shards, h.Replications)
	}
	if h.Version != version.Version {
		return fmt.Errorf("%w: %s was made by ressim %s, this is %s: merge with the version that ran the shards", ErrPartial, p, h.Version, version.Version)
	}
	if len(heads) == 0 {
		return nil
	}
	r := heads[0]
	var diff []string
	if h.FileSHA256 != r.FileSHA256 {
		diff = append(diff, fmt.Sprintf("experiment file (SHA-256 %.12s… vs %.12s…)", h.FileSHA256, r.FileSHA256))
	}
	if h.Seed != r.Seed {
		diff = append(diff, fmt.Sprintf("seed (%d vs %d)", h.Seed, r.Seed))
	}
	if h.Replications != r.Replications {
		diff = append(diff, fmt.Sprintf("replications (%d vs %d)", h.Replications, r.Replications))
	}
	if h.Kind != r.Kind || h.Series != r.Series {
		diff = append(diff, fmt.Sprintf("kind or series (%s %q vs %s %q)", h.Kind, h.Series, r.Kind, r.Series))
	}
	if h.Shards != r.Shards {
		diff = append(diff, fmt.Sprintf("shard count (%d vs %d)", h.Shards, r.Shards))
	}
	if len(diff) > 0 {
		return fmt.Errorf("%w: %s and %s are of different runs: %s differ", ErrPartial, p, first, strings.Join(diff, ", "))
	}
	return nil
}

// collectUnits returns, for each unit, the index of the partial file
// holding it. assign is the assignment every shard computed (the same
// for all of them): a file must hold only its shard's units, each unit
// once; a missing unit is reported with the shard that should hold it.
func collectUnits(parts []*partialFile, paths []string, assign [][]int) ([]int, error) {
	heads := make([]PartialHeader, len(parts))
	for i, pf := range parts {
		heads[i] = pf.Header
	}
	if err := checkUnitLists(heads, paths, assign); err != nil {
		return nil, err
	}
	total := 0
	for _, us := range assign {
		total += len(us)
	}
	from := make([]int, total) // 1 + index of the file that held the unit
	for i, pf := range parts {
		for _, u := range pf.Order {
			if err := claimUnit(from, pf.Header, u, paths, i); err != nil {
				return nil, err
			}
		}
	}
	if err := missingUnits(from, assign); err != nil {
		return nil, err
	}
	for u := range from {
		from[u]--
	}
	return from, nil
}

// checkUnitLists checks that each file's shard lists the units that
// assign deals it.
func checkUnitLists(heads []PartialHeader, paths []string, assign [][]int) error {
	for i, h := range heads {
		if h.Shard < 0 || h.Shard >= len(assign) || !slices.Equal(h.Units, assign[h.Shard]) {
			return fmt.Errorf("%w: corrupt: %s: shard %d/%d does not list the units this sweep deals it", ErrPartial, paths[i], h.Shard, h.Shards)
		}
	}
	return nil
}

// claimUnit records in from (1 + index of the file holding each unit)
// that paths[i], of header h, holds unit u: one of its shard's, and not
// held yet.
func claimUnit(from []int, h PartialHeader, u int, paths []string, i int) error {
	if _, ok := slices.BinarySearch(h.Units, u); !ok {
		return fmt.Errorf("%w: corrupt: %s holds unit %d, not one of shard %d's", ErrPartial, paths[i], u, h.Shard)
	}
	if from[u] != 0 {
		return fmt.Errorf("%w: unit %d is held twice, by %s and %s", ErrPartial, u, paths[from[u]-1], paths[i])
	}
	from[u] = i + 1
	return nil
}

func missingUnits(from []int, assign [][]int) error {
	var msgs []string
	total := 0
	for s, us := range assign {
		n := 0
		for _, u := range us {
			if from[u] == 0 {
				n++
			}
		}
		if n > 0 {
			total += n
			msgs = append(msgs, fmt.Sprintf("shard %d/%d: %d of %d", s, len(assign), n, len(us)))
		}
	}
	if total == 0 {
		return nil
	}
	if len(msgs) > 5 {
		msgs = append(msgs[:5], "...")
	}
	return fmt.Errorf("%w: %d unit(s) missing (%s): a shard's file is absent or its shard did not finish; re-run it (it resumes)", ErrPartial, total, strings.Join(msgs, "; "))
}
