package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// recipe runs a deploy/ script with bash, ressim being this test binary.
func recipe(t *testing.T, script string, env []string, args ...string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", append([]string{filepath.Join("..", "..", "deploy", script)}, args...)...)
	cmd.Env = append(os.Environ(), append(env, childEnv+"=1", "RESSIM="+exe)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", script, env, err, out)
	}
	return string(out)
}

const smallSweep = "../../sim/run/testdata/sweep-small.toml"

func unshardedSweep(t *testing.T) string {
	t.Helper()
	full := filepath.Join(t.TempDir(), "full")
	if out, err := command(t, "sweep", smallSweep, "-j", "2", "-o", full).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return full
}

// The Slurm recipe, with the array's environment faked: an array 0-(N-1)
// whose task 1 fails and is resubmitted alone (sbatch --array=1, so
// SLURM_ARRAY_TASK_MIN=1: it must still run shard 1, not shard 0), then
// the merge job. The merged folder equals the unsharded sweep's, file for
// file. A task id outside [0, N) is refused.
func TestSlurmRecipe(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	full := unshardedSweep(t)
	base := t.TempDir()
	parts, out := filepath.Join(base, "parts"), filepath.Join(base, "out")
	const n = 3
	task := func(id, lo, hi int) string {
		return recipe(t, "slurm/shard.sbatch", []string{"FILE=" + smallSweep, "N=" + strconv.Itoa(n), "PARTS=" + parts,
			"SLURM_ARRAY_TASK_ID=" + strconv.Itoa(id), "SLURM_ARRAY_TASK_MIN=" + strconv.Itoa(lo),
			"SLURM_ARRAY_TASK_MAX=" + strconv.Itoa(hi), "SLURM_CPUS_PER_TASK=1"})
	}
	for _, i := range []int{0, 2} { // task 1 "failed"
		task(i, 0, n-1)
	}
	if log, want := task(1, 1, 1), "index from SLURM_ARRAY_TASK_ID=1"; !strings.Contains(log, want) {
		t.Errorf("resubmitted task did not say %q:\n%s", want, log)
	}
	recipe(t, "slurm/merge.sbatch", []string{"PARTS=" + parts, "OUT=" + out})
	if a, b := fileSet(t, full), fileSet(t, out); !reflect.DeepEqual(a, b) {
		t.Errorf("Slurm recipe's merge differs from the unsharded sweep:\n%v\n%v", a, b)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", filepath.Join("..", "..", "deploy", "slurm", "shard.sbatch"))
	cmd.Env = append(os.Environ(), "FILE="+smallSweep, "N=3", "PARTS="+parts, "SLURM_ARRAY_TASK_ID=10",
		"SLURM_ARRAY_TASK_MIN=10", childEnv+"=1", "RESSIM="+exe)
	if b, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(b), "SLURM_ARRAY_TASK_ID=10 is outside 0..2") {
		t.Errorf("task id 10 of N=3: %v\n%s", err, b)
	}
}

// The xargs recipe: N local processes, J at a time, then the merge; and
// the Kubernetes Indexed Job's environment (JOB_COMPLETION_INDEX).
func TestLocalAndIndexedJobRecipes(t *testing.T) {
	if _, err := exec.LookPath("xargs"); err != nil {
		t.Skip("no xargs")
	}
	full := unshardedSweep(t)
	base := t.TempDir()
	recipe(t, "local/shards.sh", nil, smallSweep, "4", "2", filepath.Join(base, "parts"), filepath.Join(base, "out"))
	if a, b := fileSet(t, full), fileSet(t, filepath.Join(base, "out")); !reflect.DeepEqual(a, b) {
		t.Errorf("xargs recipe's merge differs from the unsharded sweep")
	}
	k8s := filepath.Join(base, "k8s")
	for i := 0; i < 2; i++ {
		cmd := command(t, "sweep", smallSweep, "--shard", "auto/2", "-j", "1", "-o", k8s)
		cmd.Env = append(cmd.Env, "JOB_COMPLETION_INDEX="+strconv.Itoa(i))
		if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "index from JOB_COMPLETION_INDEX") {
			t.Fatalf("indexed job pod %d: %v\n%s", i, err, out)
		}
	}
	if out, err := command(t, "merge", "-o", filepath.Join(base, "k8s-out"), filepath.Join(k8s, "*.partial.jsonl")).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if a, b := fileSet(t, full), fileSet(t, filepath.Join(base, "k8s-out")); !reflect.DeepEqual(a, b) {
		t.Errorf("indexed job's merge differs from the unsharded sweep")
	}
}

// A refused merge exits 2 (exitInvalid) and names the cause.
func TestMergeExitStatus(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "x.partial.jsonl")
	os.WriteFile(bad, []byte("{}\n"), 0o644)
	cmd := command(t, "merge", "-o", filepath.Join(dir, "out"), bad)
	out, err := cmd.CombinedOutput()
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != exitInvalid || !strings.Contains(string(out), "refused") {
		t.Fatalf("exit %v, %v:\n%s", cmd.ProcessState, err, out)
	}
}

// A shard stopped by its wall-time budget (as a Slurm time limit stops a
// task) exits 4 and says how to resume; the same command then finishes
// it, and the merge equals the unsharded sweep.
func TestShardStoppedThenResumed(t *testing.T) {
	full := unshardedSweep(t)
	parts := filepath.Join(t.TempDir(), "parts")
	cmd := command(t, "sweep", smallSweep, "--shard", "0/2", "-j", "1", "-o", parts, "--timeout", "1ms")
	out, _ := cmd.CombinedOutput()
	if cmd.ProcessState.ExitCode() != exitBudget || !strings.Contains(string(out), "run the same command again to resume") {
		t.Fatalf("stopped shard: exit %d\n%s", cmd.ProcessState.ExitCode(), out)
	}
	for _, shard := range []string{"0/2", "1/2"} {
		if out, err := command(t, "sweep", smallSweep, "--shard", shard, "-j", "2", "-o", parts).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", shard, err, out)
		}
	}
	merged := filepath.Join(t.TempDir(), "merged")
	if out, err := command(t, "merge", "-o", merged, parts).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if a, b := fileSet(t, full), fileSet(t, merged); !reflect.DeepEqual(a, b) {
		t.Errorf("merge after a resumed shard differs from the unsharded sweep")
	}
}

// The container recipe, read as text (no container runtime here): the
// image carries promtool (for 'ressim alerts') from Debian's prometheus
// package on a base with the glibc it links against, the -ldflags -X
// build arguments name variables internal/version has, and .dockerignore
// keeps .git, out/ and test outputs out of the build context.
func TestDockerRecipe(t *testing.T) {
	root := filepath.Join("..", "..")
	b, err := os.ReadFile(filepath.Join(root, "deploy", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	df := string(b)
	last := df[strings.LastIndex(df, "\nFROM "):]
	for _, want := range []string{"apt-get download prometheus", "dpkg-deb -x prometheus_", "promtool --version"} {
		if !strings.Contains(df, want) {
			t.Errorf("Dockerfile lacks %q (promtool from Debian's prometheus package)", want)
		}
	}
	if !strings.Contains(last, "promtool /usr/local/bin/promtool") {
		t.Errorf("the runtime stage does not copy promtool onto PATH:\n%s", last)
	}
	if strings.Contains(strings.SplitN(last, "\n", 3)[1], "static") {
		t.Errorf("runtime base %q has no libc, which Debian's promtool needs", strings.SplitN(last, "\n", 3)[1])
	}
	vsrc, err := os.ReadFile(filepath.Join(root, "internal", "version", "version.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"commit", "commitTime", "module"} {
		if !strings.Contains(df, "internal/version."+v+"=") {
			t.Errorf("Dockerfile does not stamp version.%s", v)
		}
		if !strings.Contains(string(vsrc), v+",") && !strings.Contains(string(vsrc), v+" string") {
			t.Errorf("internal/version has no variable %s for -X", v)
		}
	}
	ig, err := os.ReadFile(filepath.Join(root, ".dockerignore"))
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, l := range strings.Split(string(ig), "\n") {
		have[strings.TrimSpace(l)] = true
	}
	for _, want := range []string{".git", "out", "**/worktrees", "**/.worktrees", "**/*.partial.jsonl", "**/testdata/fuzz", "**/*.test"} {
		if !have[want] {
			t.Errorf(".dockerignore lacks %q", want)
		}
	}
	for _, keep := range []string{"experiments", "go.mod", "go.sum", "cmd", "sim", "internal", "*.go", "**/*.go", "."} {
		if have[keep] {
			t.Errorf(".dockerignore excludes %q, which the build needs", keep)
		}
	}
}

// deploy/k8s/wait.sh, with a fake kubectl: it returns on Failed (where
// 'kubectl wait --for=condition=complete' would hang) naming the failed
// indexes, and exits 0 on Complete only.
func TestKubeWaitScript(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	fake := filepath.Join(t.TempDir(), "kubectl")
	os.WriteFile(fake, []byte("#!/bin/bash\ncase \"$*\" in *failedIndexes*) printf 2,5 ;; *) printf '%s' \"$CONDS\" ;; esac\n"), 0o755)
	for _, tc := range []struct {
		conds string
		ok    bool
		say   string
	}{
		{"SuccessCriteriaMet Complete ", true, "complete"},
		{"FailureTarget Failed ", false, "failed indexes: 2,5"},
		{"", false, "neither complete nor failed"},
	} {
		cmd := exec.Command("bash", filepath.Join("..", "..", "deploy", "k8s", "wait.sh"), "ressim-shards", "0s", "0")
		cmd.Env = append(os.Environ(), "KUBECTL="+fake, "CONDS="+tc.conds)
		out, err := cmd.CombinedOutput()
		if (err == nil) != tc.ok || !strings.Contains(string(out), tc.say) {
			t.Errorf("conditions %q: %v\n%s", tc.conds, err, out)
		}
	}
}
