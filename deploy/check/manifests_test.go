// Package check parses deploy/k8s strictly with the real Kubernetes API
// types. It is a separate module, so that the main module does not depend
// on k8s.io/api; run it with: cd deploy/check && go test -count=1 ./...
// (-count=1: the manifests live outside this module, so go test's cache
// does not see them change).
package check

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// docs splits a multi-document YAML file.
func docs(t *testing.T, path string) [][]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, d := range bytes.Split(b, []byte("\n---\n")) {
		if len(bytes.TrimSpace(d)) > 0 {
			out = append(out, d)
		}
	}
	return out
}

func kind(t *testing.T, d []byte) string {
	var m struct{ Kind string }
	if err := yaml.Unmarshal(d, &m); err != nil {
		t.Fatal(err)
	}
	return m.Kind
}

// job parses a Job strictly (unknown fields are errors) and checks what
// the recipe promises: non-root, read-only root, no capabilities, sized
// resources, ressim's arguments.
func job(t *testing.T, d []byte) *batchv1.Job {
	t.Helper()
	var j batchv1.Job
	if err := yaml.UnmarshalStrict(d, &j); err != nil {
		t.Fatal(err)
	}
	ps := j.Spec.Template.Spec
	if ps.SecurityContext == nil || ps.SecurityContext.RunAsNonRoot == nil || !*ps.SecurityContext.RunAsNonRoot {
		t.Errorf("%s: pod does not require a non-root user", j.Name)
	}
	if ps.RestartPolicy != corev1.RestartPolicyNever {
		t.Errorf("%s: restartPolicy %q, want Never", j.Name, ps.RestartPolicy)
	}
	for _, c := range ps.Containers {
		sc := c.SecurityContext
		if sc == nil || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
			t.Errorf("%s/%s: root filesystem not read-only", j.Name, c.Name)
		}
		if sc == nil || sc.Capabilities == nil || len(sc.Capabilities.Drop) == 0 || sc.Capabilities.Drop[0] != "ALL" {
			t.Errorf("%s/%s: capabilities not dropped", j.Name, c.Name)
		}
		if c.Resources.Requests.Cpu().IsZero() || c.Resources.Limits.Memory().IsZero() {
			t.Errorf("%s/%s: no CPU request or memory limit", j.Name, c.Name)
		}
	}
	cluster, ok, err := declaredKube()
	if err != nil {
		t.Fatalf("%s: %v", KubeVersionEnv, err)
	}
	if ok {
		if err := CheckKube(&j, cluster); err != nil {
			t.Errorf("%v (%s=%s)", err, KubeVersionEnv, os.Getenv(KubeVersionEnv))
		}
	}
	return &j
}

// statesMinKube checks that a manifest's comments state the least
// Kubernetes version its Jobs need, as "Kubernetes 1.N or later".
func statesMinKube(t *testing.T, path string, j *batchv1.Job) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	min, why := MinKube(j)
	if want := "Kubernetes 1." + strconv.Itoa(min) + " or later"; min > 0 && !bytes.Contains(b, []byte(want)) {
		t.Errorf("%s: its comments do not say %q (%v)", path, want, why)
	}
}

func TestShardsManifest(t *testing.T) {
	var jobs int
	for _, d := range docs(t, "../k8s/shards.yaml") {
		switch kind(t, d) {
		case "PersistentVolumeClaim":
			var pvc corev1.PersistentVolumeClaim
			if err := yaml.UnmarshalStrict(d, &pvc); err != nil {
				t.Fatal(err)
			}
		case "Job":
			jobs++
			j := job(t, d)
			if j.Spec.CompletionMode == nil || *j.Spec.CompletionMode != batchv1.IndexedCompletion {
				t.Errorf("shards: not an Indexed Job")
			}
			statesMinKube(t, "../k8s/shards.yaml", j)
			args := strings.Join(j.Spec.Template.Spec.Containers[0].Args, " ")
			n := *j.Spec.Completions
			if want := "--shard auto/" + strconv.Itoa(int(n)); !strings.Contains(args, want) {
				t.Errorf("shards: args %q lack %q (completions %d)", args, want, n)
			}
		default:
			t.Errorf("unexpected kind %q", kind(t, d))
		}
	}
	if jobs != 1 {
		t.Errorf("%d Jobs in shards.yaml, want 1", jobs)
	}
}

func TestMergeManifest(t *testing.T) {
	ds := docs(t, "../k8s/merge.yaml")
	if len(ds) != 1 || kind(t, ds[0]) != "Job" {
		t.Fatalf("merge.yaml: want one Job")
	}
	j := job(t, ds[0])
	if args := j.Spec.Template.Spec.Containers[0].Args; len(args) == 0 || args[0] != "merge" {
		t.Errorf("merge: args %v", args)
	}
}

// The shards' Indexed Job uses backoffLimitPerIndex and maxFailedIndexes:
// unknown fields on 1.27, feature-gated off by default on 1.28 (the API
// server drops them, and a failed index is no longer retried on its
// own). A cluster declared 1.28 is refused, 1.29 accepted.
func TestKubeVersionRefusesTooNew(t *testing.T) {
	var shards *batchv1.Job
	for _, d := range docs(t, "../k8s/shards.yaml") {
		if kind(t, d) == "Job" {
			var j batchv1.Job
			if err := yaml.UnmarshalStrict(d, &j); err != nil {
				t.Fatal(err)
			}
			shards = &j
		}
	}
	if shards == nil {
		t.Fatal("no Job in shards.yaml")
	}
	if min, why := MinKube(shards); min != 29 || len(why) != 2 {
		t.Errorf("MinKube = 1.%d %v, want 1.29 for backoffLimitPerIndex and maxFailedIndexes", min, why)
	}
	for _, v := range []string{"1.27", "v1.28.3"} {
		m, err := ParseKubeVersion(v)
		if err != nil {
			t.Fatal(err)
		}
		err = CheckKube(shards, m)
		if err == nil || !strings.Contains(err.Error(), "needs Kubernetes 1.29 or later (spec.backoffLimitPerIndex, spec.maxFailedIndexes)") {
			t.Errorf("cluster %s: %v", v, err)
		}
	}
	for _, v := range []string{"1.29", "v1.33.1"} {
		m, err := ParseKubeVersion(v)
		if err != nil {
			t.Fatal(err)
		}
		if err := CheckKube(shards, m); err != nil {
			t.Errorf("cluster %s: %v", v, err)
		}
	}
	for _, bad := range []string{"", "1", "2.1", "1.x", "latest"} {
		if _, err := ParseKubeVersion(bad); err == nil {
			t.Errorf("ParseKubeVersion(%q) accepted", bad)
		}
	}
}
