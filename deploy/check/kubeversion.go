package check

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	batchv1 "k8s.io/api/batch/v1"
)

// KubeVersionEnv names the variable that declares the target cluster's
// Kubernetes version (e.g. KUBE_VERSION=1.28 or v1.28.3): the manifests
// are then refused if they use a field that version lacks or keeps off by
// default.
const KubeVersionEnv = "KUBE_VERSION"

// jobFeature is a Job field and the first Kubernetes minor version (1.x)
// where it is accepted and on by default (beta or GA).
type jobFeature struct {
	field string
	minor int
	used  func(*batchv1.JobSpec) bool
}

var jobFeatures = []jobFeature{
	{"spec.completionMode: Indexed", 22, func(s *batchv1.JobSpec) bool {
		return s.CompletionMode != nil && *s.CompletionMode == batchv1.IndexedCompletion
	}},
	{"spec.podFailurePolicy", 26, func(s *batchv1.JobSpec) bool { return s.PodFailurePolicy != nil }},
	// Alpha in 1.28 (feature gate JobBackoffLimitPerIndex, off by
	// default: the API server drops the fields), unknown in 1.27.
	{"spec.backoffLimitPerIndex", 29, func(s *batchv1.JobSpec) bool { return s.BackoffLimitPerIndex != nil }},
	{"spec.maxFailedIndexes", 29, func(s *batchv1.JobSpec) bool { return s.MaxFailedIndexes != nil }},
	{"spec.podReplacementPolicy", 29, func(s *batchv1.JobSpec) bool { return s.PodReplacementPolicy != nil }},
	{"spec.successPolicy", 31, func(s *batchv1.JobSpec) bool { return s.SuccessPolicy != nil }},
	{"spec.managedBy", 32, func(s *batchv1.JobSpec) bool { return s.ManagedBy != nil }},
}

// MinKube returns the least Kubernetes minor version (1.x) that runs the
// Job as written, and the fields that need it.
func MinKube(j *batchv1.Job) (int, []string) {
	min, why := 0, []string(nil)
	for _, f := range jobFeatures {
		if !f.used(&j.Spec) {
			continue
		}
		if f.minor > min {
			min, why = f.minor, nil
		}
		if f.minor == min {
			why = append(why, f.field)
		}
	}
	return min, why
}

// ParseKubeVersion reads "1.28", "v1.28" or "v1.28.3" as minor 28.
func ParseKubeVersion(s string) (int, error) {
	parts := strings.Split(strings.TrimPrefix(strings.TrimSpace(s), "v"), ".")
	if len(parts) < 2 || parts[0] != "1" {
		return 0, fmt.Errorf("Kubernetes version %q: want 1.MINOR, e.g. 1.29", s)
	}
	m, err := strconv.Atoi(parts[1])
	if err != nil || m < 0 {
		return 0, fmt.Errorf("Kubernetes version %q: want 1.MINOR, e.g. 1.29", s)
	}
	return m, nil
}

// CheckKube refuses a Job too new for a cluster of minor version cluster.
func CheckKube(j *batchv1.Job, cluster int) error {
	if min, why := MinKube(j); cluster < min {
		return fmt.Errorf("job %s needs Kubernetes 1.%d or later (%s), the cluster is 1.%d", j.Name, min, strings.Join(why, ", "), cluster)
	}
	return nil
}

// declaredKube returns the cluster's minor version from KUBE_VERSION, or
// ok false if it is unset.
func declaredKube() (minor int, ok bool, err error) {
	v := os.Getenv(KubeVersionEnv)
	if v == "" {
		return 0, false, nil
	}
	m, err := ParseKubeVersion(v)
	return m, err == nil, err
}
