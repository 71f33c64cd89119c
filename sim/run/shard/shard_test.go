package shard

import (
	"reflect"
	"strings"
	"testing"
)

func TestAssignUnits(t *testing.T) {
	for _, tc := range []struct {
		name string
		cost []float64
		n    int
		want [][]int
	}{
		{"equal costs deal round-robin", []float64{1, 1, 1, 1, 1}, 2, [][]int{{0, 2, 4}, {1, 3}}},
		{"one big unit takes a shard alone", []float64{1, 6, 1, 1, 1, 1}, 2, [][]int{{1}, {0, 2, 3, 4, 5}}},
		{"largest first, each to the least loaded", []float64{3, 3, 2, 2, 2}, 2, [][]int{{0, 2, 4}, {1, 3}}},
		{"more shards than units leave some empty", []float64{1, 1}, 4, [][]int{{0}, {1}, nil, nil}},
		{"one shard holds all", []float64{2, 1, 3}, 1, [][]int{{0, 1, 2}}},
	} {
		if got := AssignUnits(tc.cost, tc.n); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestParseShard(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, tc := range []struct {
		spec string
		env  map[string]string
		want Shard
		from string
		ok   bool
	}{
		{"0/1", nil, Shard{0, 1}, "", true},
		{"3/4", nil, Shard{3, 4}, "", true},
		{"4/4", nil, Shard{}, "", false},
		{"-1/4", nil, Shard{}, "", false},
		{"1/0", nil, Shard{}, "", false},
		{"1", nil, Shard{}, "", false},
		{"a/4", nil, Shard{}, "", false},
		{"auto/4", map[string]string{"JOB_COMPLETION_INDEX": "2"}, Shard{2, 4}, "JOB_COMPLETION_INDEX=2", true},
		{"auto/4", map[string]string{"JOB_COMPLETION_INDEX": "1", "SLURM_ARRAY_TASK_ID": "3"}, Shard{1, 4}, "JOB_COMPLETION_INDEX=1", true},
		{"auto/4", map[string]string{"SLURM_ARRAY_TASK_ID": "3"}, Shard{3, 4}, "SLURM_ARRAY_TASK_ID=3", true},
		// The task id is the shard, whatever the array's minimum: task 2
		// resubmitted alone (sbatch --array=2, so SLURM_ARRAY_TASK_MIN=2)
		// runs shard 2, not shard 0.
		{"auto/4", map[string]string{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "2", "SLURM_ARRAY_TASK_MAX": "2"}, Shard{2, 4}, "SLURM_ARRAY_TASK_ID=2", true},
		{"auto/4", map[string]string{"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "0"}, Shard{0, 4}, "SLURM_ARRAY_TASK_ID=0", true},
		// An array not numbered 0..N-1 is refused, not shifted.
		{"auto/4", map[string]string{"SLURM_ARRAY_TASK_ID": "12", "SLURM_ARRAY_TASK_MIN": "10"}, Shard{}, "", false},
		{"auto/4", map[string]string{"SLURM_ARRAY_TASK_ID": "4"}, Shard{}, "", false},
		{"auto/4", map[string]string{"SLURM_ARRAY_TASK_ID": "-1"}, Shard{}, "", false},
		{"auto/4", map[string]string{"JOB_COMPLETION_INDEX": "4"}, Shard{}, "", false},
		{"auto/4", map[string]string{"SLURM_ARRAY_TASK_ID": "x"}, Shard{}, "", false},
		{"auto/4", nil, Shard{}, "", false},
	} {
		got, from, err := ParseShard(tc.spec, env(tc.env))
		if (err == nil) != tc.ok || got != tc.want || from != tc.from {
			t.Errorf("ParseShard(%q, %v) = %v, %q, %v; want %v, %q, ok %v", tc.spec, tc.env, got, from, err, tc.want, tc.from, tc.ok)
		}
	}
}

// A Slurm task id outside [0, N) is refused with a message that says how
// to submit the array.
func TestParseShardSlurmOutOfRange(t *testing.T) {
	m := map[string]string{"SLURM_ARRAY_TASK_ID": "12", "SLURM_ARRAY_TASK_MIN": "10"}
	_, _, err := ParseShard("auto/4", func(k string) string { return m[k] })
	if err == nil || !strings.Contains(err.Error(), "SLURM_ARRAY_TASK_ID=12 is outside 0..3") || !strings.Contains(err.Error(), "--array=0-3") {
		t.Errorf("got %v", err)
	}
}
