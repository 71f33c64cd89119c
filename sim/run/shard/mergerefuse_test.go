package shard

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ressim/ressim/internal/version"
	"github.com/ressim/ressim/sim/run"
)

// A shard killed mid-write (its file cut inside a line) resumes: the
// re-run keeps the whole lines, runs the rest, and the merge matches the
// unsharded sweep.
func TestShardResume(t *testing.T) {
	exp, data := loadSweep(t, "sweep-small.toml")
	full := unsharded(t, exp)
	parts := filepath.Join(t.TempDir(), "parts")
	paths := runShards(t, exp, data, 2, parts)
	b, err := os.ReadFile(paths[1])
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(b, []byte("\n"))
	// Header, 4 whole units, and half of the fifth: a kill mid-write.
	cut := bytes.Join(lines[:5], nil)
	cut = append(cut, lines[5][:len(lines[5])/2]...)
	if err := os.WriteFile(paths[1], cut, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Merge(context.Background(), paths, MergeOptions{OutDir: filepath.Join(t.TempDir(), "m")}); !errors.Is(err, ErrPartial) || !strings.Contains(err.Error(), "torn") {
		t.Fatalf("merge of a torn shard: %v, want a refusal naming the torn line", err)
	}
	sr, err := RunSweepShard(context.Background(), exp, "sweep-small.toml", data, Shard{1, 2}, run.CompareOptions{OutDir: parts, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if sr.Resumed != 4 || sr.Ran != sr.Units-4 {
		t.Fatalf("resumed %d and ran %d of %d, want 4 and the rest", sr.Resumed, sr.Ran, sr.Units)
	}
	merged := filepath.Join(t.TempDir(), "merged")
	if _, err := Merge(context.Background(), paths, MergeOptions{OutDir: merged, Plots: true}); err != nil {
		t.Fatal(err)
	}
	sameTree(t, full, merged)
	// A finished shard re-run runs nothing.
	sr, err = RunSweepShard(context.Background(), exp, "sweep-small.toml", data, Shard{1, 2}, run.CompareOptions{OutDir: parts})
	if err != nil || sr.Ran != 0 || sr.Resumed != sr.Units {
		t.Fatalf("re-run of a finished shard: %+v, %v", sr, err)
	}
}

// A resume refuses a file whose checksums fail or that belongs to another
// run, rather than overwrite it.
func TestShardResumeRefuses(t *testing.T) {
	exp, data := loadSweep(t, "sweep-tiny.toml")
	parts := t.TempDir()
	paths := runShards(t, exp, data, 1, parts)
	b, _ := os.ReadFile(paths[0])
	os.WriteFile(paths[0], bytes.Replace(b, []byte(`"replication":0`), []byte(`"replication":1`), 1), 0o644)
	// The file name runShards records, so that only the edited line differs.
	if _, err := RunSweepShard(context.Background(), exp, "sweep-small.toml", data, Shard{0, 1}, run.CompareOptions{OutDir: parts}); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Fatalf("resume over an edited line: %v, want a checksum error", err)
	}
	os.WriteFile(paths[0], b, 0o644)
	seed := uint64(99)
	if _, err := RunSweepShard(context.Background(), exp, "sweep-small.toml", data, Shard{0, 1}, run.CompareOptions{OutDir: parts, Seed: &seed}); err == nil || !strings.Contains(err.Error(), "another run") {
		t.Fatalf("resume with another seed: %v, want a refusal", err)
	}
}

// Every refusal of merge is ErrPartial with a message naming the cause.
func TestMergeRefusals(t *testing.T) {
	exp, data := loadSweep(t, "sweep-small.toml")
	dir := t.TempDir()
	paths := runShards(t, exp, data, 3, filepath.Join(dir, "a"))
	seed := uint64(8)
	other, err := RunSweepShard(context.Background(), exp, "sweep-small.toml", data, Shard{0, 3}, run.CompareOptions{OutDir: filepath.Join(dir, "seed"), Seed: &seed})
	if err != nil {
		t.Fatal(err)
	}
	two, err := RunSweepShard(context.Background(), exp, "sweep-small.toml", data, Shard{0, 2}, run.CompareOptions{OutDir: filepath.Join(dir, "two")})
	if err != nil {
		t.Fatal(err)
	}
	tiny, tdata := loadSweep(t, "sweep-tiny.toml")
	otherFile := runShards(t, tiny, tdata, 3, filepath.Join(dir, "tiny"))
	edit := func(name, old, new string) string {
		b, _ := os.ReadFile(paths[0])
		p := filepath.Join(dir, name)
		os.WriteFile(p, bytes.Replace(b, []byte(old), []byte(new), 1), 0o644)
		return p
	}
	// A shard killed while writing its last line: the file ends mid-record.
	torn := filepath.Join(dir, "torn.jsonl")
	if b, err := os.ReadFile(paths[2]); err != nil {
		t.Fatal(err)
	} else {
		os.WriteFile(torn, b[:len(b)-10], 0o644)
	}
	notPartial := filepath.Join(dir, "notes.txt")
	os.WriteFile(notPartial, []byte("hello\n"), 0o644)
	for _, tc := range []struct {
		name  string
		paths []string
		want  string
	}{
		{"missing shard", paths[:2], "missing (shard 2/3: 12 of 12)"},
		{"another shard's units", []string{edit("units", `"shard":0`, `"shard":1`)}, "does not list the units"},
		{"absurd shard count", []string{edit("huge", `"shards":3`, `"shards":2000000000`)}, "out of range"},
		{"duplicated units", append(paths, paths[0]), "held twice"},
		{"other seed", []string{paths[1], paths[2], other.Path}, "seed (8 vs 7)"},
		{"other file", []string{paths[0], paths[1], otherFile[2]}, "experiment file"},
		{"other shard count", []string{paths[0], paths[1], two.Path}, "shard count (2 vs 3)"},
		{"other version", []string{edit("ver", `"ressim_version":"`+version.Version+`"`, `"ressim_version":"0.0.0-other"`)}, "made by ressim 0.0.0-other"},
		{"edited record", []string{edit("rec", `"replication":0`, `"replication":1`)}, "checksum mismatch"},
		{"edited embedded file", []string{edit("file", `"file_bytes":"IyBB`, `"file_bytes":"IyBC`)}, "does not match its SHA-256"},
		{"torn last line", []string{paths[0], paths[1], torn}, "torn.jsonl ends in a torn line: its shard was killed while writing"},
		{"not a partial", []string{notPartial}, "corrupt"},
		{"none", nil, "no partial file"},
	} {
		_, err := Merge(context.Background(), tc.paths, MergeOptions{OutDir: filepath.Join(dir, "out")})
		if !errors.Is(err, ErrPartial) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want ErrPartial containing %q", tc.name, err, tc.want)
		}
	}
	if _, err := Merge(context.Background(), paths, MergeOptions{OutDir: filepath.Join(dir, "out"), Verify: -1}); err == nil || !strings.Contains(err.Error(), "verify must be >= 0") {
		t.Errorf("a negative --verify: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); !os.IsNotExist(err) {
		t.Errorf("a refused merge left an output folder: %v", err)
	}
	if _, err := PartialPaths([]string{filepath.Join(dir, "nothing-*.jsonl")}); !errors.Is(err, ErrPartial) {
		t.Errorf("a glob matching nothing: %v", err)
	}
}
