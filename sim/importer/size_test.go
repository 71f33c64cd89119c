package importer

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/topology"
)

// r4jInstances is an application.yml of n instances: circuit breakers
// inheriting the default config's eight properties, or without props
// time limiters inheriting one (its only property, so that the import
// adds no resilience4j default to it and the experiment stays small).
func r4jInstances(n int, props bool) []byte {
	var b strings.Builder
	if !props {
		b.WriteString("resilience4j.timelimiter:\n  configs:\n    default:\n      timeoutDuration: 1s\n  instances:\n")
	} else {
		b.WriteString("resilience4j.circuitbreaker:\n  configs:\n    default:\n" +
			"      slidingWindowType: COUNT_BASED\n      slidingWindowSize: 10\n      minimumNumberOfCalls: 5\n" +
			"      failureRateThreshold: 50\n      slowCallRateThreshold: 100\n      slowCallDurationThreshold: 2s\n" +
			"      permittedNumberOfCallsInHalfOpenState: 3\n      waitDurationInOpenState: 5s\n  instances:\n")
	}
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "    s%d: {}\n", i)
	}
	return []byte(b.String())
}

// TestTooManyCalls: a legal input with more instances than a handler has
// steps is ErrTooLarge, saying how many and how to split, not a bug in
// import.
func TestTooManyCalls(t *testing.T) {
	if _, err := Import("resilience4j", []Source{{"x.yml", r4jInstances(topology.MaxSteps, false)}}); err != nil {
		t.Fatalf("%d instances: %v", topology.MaxSteps, err)
	}
	_, err := Import("resilience4j", []Source{{"x.yml", r4jInstances(topology.MaxSteps+1, false)}})
	if !errors.Is(err, ErrTooLarge) || errors.Is(err, errImportBug) {
		t.Fatalf("error %v, want ErrTooLarge", err)
	}
	if want := "x.yml name 1001 calls, and the generated caller makes one step per call, at most 1000"; !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "split the input") {
		t.Errorf("error %q, want %q and advice to split", err, want)
	}
}

// TestGeneratedTooLarge: a legal input (under 1 MiB) whose experiment
// would be over experiment.MaxFileSize is ErrTooLarge with the size and
// the limit, not a bug in import.
func TestGeneratedTooLarge(t *testing.T) {
	name := "configs/" + strings.Repeat("d", 200) + "/application.yml"
	src := r4jInstances(600, true)
	if len(src) > experiment.MaxFileSize {
		t.Fatalf("the input is %d bytes, itself over the limit", len(src))
	}
	_, err := Import("resilience4j", []Source{{name, src}})
	if !errors.Is(err, ErrTooLarge) || errors.Is(err, errImportBug) {
		t.Fatalf("error %v, want ErrTooLarge", err)
	}
	msg := err.Error()
	for _, want := range []string{"the experiment generated from " + name + " is ", " bytes, over the 1048576-byte (1 MiB) limit", "split the input"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
}

// TestMergedTooLarge: an experiment just under the limit that the merged
// settings push over it is ErrTooLarge, with the size and the limit.
func TestMergedTooLarge(t *testing.T) {
	r := importFile(t, "istio", "istio-bookinfo.yaml")
	maps, err := ParseMappingFile("testdata/into-bookinfo.map", readTestdata(t, "into-bookinfo.map"))
	if err != nil {
		t.Fatal(err)
	}
	into := readTestdata(t, "into-bookinfo.toml")
	line := "# " + strings.Repeat("padding ", 12) + "\n"
	for len(into)+len(line) <= experiment.MaxFileSize {
		into = append(into, line...)
	}
	if _, err := experiment.Parse("into.toml", into); err != nil {
		t.Fatalf("the padded experiment: %v", err)
	}
	_, err = Merge(r, "into.toml", into, maps)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "merge: too large for one experiment file: the merged experiment is ") ||
		!strings.Contains(err.Error(), "bytes, over the 1048576-byte (1 MiB) limit") {
		t.Fatalf("error %v, want ErrTooLarge with the size", err)
	}
}
