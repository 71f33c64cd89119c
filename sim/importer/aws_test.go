package importer

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/policies/budget"
	"github.com/ressim/ressim/sim/topology"
)

// TestImportAWSValidateRun: the AWS configs import, validate and run
// (shortened to 2 s), match their golden files with the warnings, and
// every standard or adaptive profile's call carries the SDK's retry
// quota, the aws_standard budget with the SDK's defaults.
func TestImportAWSValidateRun(t *testing.T) {
	for _, name := range []string{"aws-config", "aws-sdk-go-v2-shared-config"} {
		r := importFile(t, "aws", name)
		e, err := experiment.Parse(name+".toml", []byte(r.TOML))
		if err != nil {
			t.Fatalf("%s: generated experiment invalid: %v\n%s", name, err, r.TOML)
		}
		cfg := e.Model
		cfg.Duration = 2 * time.Second
		m, err := topology.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if res, err := m.Run(); err != nil || res == nil {
			t.Fatalf("%s: run: %v", name, err)
		}
		var b bytes.Buffer
		b.WriteString(r.TOML)
		b.WriteString("\n# warnings:\n")
		for _, w := range r.Warnings {
			b.WriteString("# " + w.String() + "\n")
		}
		golden(t, filepath.Join("testdata", "golden", name+".toml"), b.Bytes())
	}

	r := importFile(t, "aws", "aws-config")
	e, err := experiment.Parse("aws.toml", []byte(r.TOML))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		attempts int
		quota    bool
	}{"default": {5, true}, "batch": {10, true}, "reports": {5, false}, "checkout": {1, true}, "ci": {3, true}}
	steps := e.Model.Services[0].Steps
	if len(steps) != len(want) {
		t.Fatalf("%d calls, want %d:\n%s", len(steps), len(want), r.TOML)
	}
	for _, st := range steps {
		c := st.Calls[0]
		w, ok := want[c.Service]
		if !ok {
			t.Fatalf("unexpected call to %q", c.Service)
		}
		p := c.Policy.Retry
		if p.MaxAttempts != w.attempts || p.Base != time.Second || p.Cap != 20*time.Second || p.Backoff.String() != "full_jitter" {
			t.Errorf("%s: retry %+v, want %d attempts, full jitter from 1s to 20s", c.Service, p, w.attempts)
		}
		g := c.Policy.Guards
		if !w.quota {
			if g.AWSQuota != nil || g.Budget != nil {
				t.Errorf("%s: legacy mode has no retry quota, got %+v", c.Service, g)
			}
			continue
		}
		if g.AWSQuota == nil || *g.AWSQuota != budget.DefaultAWSConfig() || g.Budget != nil {
			t.Errorf("%s: guards %+v, want the aws_standard budget with the SDK's defaults", c.Service, g)
		}
	}
}

// TestAWSWarnings: adaptive, legacy, an unset mode and the keys that bear
// on resilience are warned at their positions; the other keys are named
// in one warning, and no value of theirs is ever written.
func TestAWSWarnings(t *testing.T) {
	src := "[default]\naws_access_key_id = AKIDEXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG\naws_session_token = FwoGZXIvYXdzEXAMPLE\n" +
		"retry_mode = adaptive\nmetadata_service_num_attempts = 3\n[profile b]\nregion = eu-west-1\n[plugins]\ncli_legacy_plugin_path = /x\n"
	r, err := Import("aws", []Source{{"c", []byte(src)}})
	if err != nil {
		t.Fatal(err)
	}
	var ws []string
	for _, w := range r.Warnings {
		ws = append(ws, w.String())
	}
	got := strings.Join(ws, "\n")
	for _, want := range []string{
		"c:2:1: [default].aws_access_key_id: 4 other properties or sections do not bear on resilience and are ignored: aws_access_key_id, aws_secret_access_key, aws_session_token, region",
		"c:5:14: [default].retry_mode: approximate: adaptive mode is standard mode plus a client-side rate limiter",
		"c:6:1: [default].metadata_service_num_attempts: not modelled: the credential fetch from the instance metadata service",
		"c:7:1: [profile b].retry_mode (default): retry_mode not set: imported as standard",
		"c:9:1: [plugins]: not a section the SDKs read in the config file",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("warnings lack %q:\n%s", want, got)
		}
	}
	for _, secret := range []string{"AKIDEXAMPLE", "wJalrXUtnFEMI", "FwoGZXIvYXdzEXAMPLE"} {
		if strings.Contains(got, secret) || strings.Contains(r.TOML, secret) {
			t.Errorf("a credential value %q was echoed", secret)
		}
	}
}

// TestAWSErrors: malformed lines, duplicate keys, unknown modes and bad
// max_attempts are errors at their positions; a malformed line is not
// quoted, since it may hold a secret.
func TestAWSErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"[default]\naws_secret_access_key wJalrXUtnFEMI\n", `c:2:1: [default]: not a section header, a comment or a "key = value" line`},
		{"[default]\nretry_mode = standard\nmax_attempts = 2\nretry_mode = legacy\n", "c:4:1: [default].retry_mode: set again in this profile (first at c:2:1)"},
		{"[profile a]\nretry_mode = standrad\n", `c:2:14: [profile a].retry_mode: unknown retry_mode "standrad" (did you mean "standard"?): want standard, adaptive or legacy`},
		{"[profile a]\nretry_mode = exponential\n", `c:2:14: [profile a].retry_mode: unknown retry_mode "exponential": want standard`},
		{"[profile a]\nmax_attempts = 0\n", `c:2:16: [profile a].max_attempts: max_attempts must be a positive integer (attempts in all, the first included; 1 = no retries), got "0"`},
		{"[profile a]\nmax_attempts = three # comment\n", `c:2:16: [profile a].max_attempts: max_attempts must be a positive integer`},
		{"[profile a]\nmax_attempts = 101\n", "c:2:16: [profile a].max_attempts: max_attempts 101 is more attempts than ressim models (at most 100)"},
		{"[profile a]\nmax_attempts = 99999999999999999999\n", `max_attempts "99999999999999999999" is more attempts than ressim models`},
		{"[profile a b]\n", `c:1:1: [profile a b]: profile "a b" cannot name the callee`},
		{"[profile caller]\n", `profile "caller" cannot name the callee`},
		{"[profile a\nretry_mode = standard\n", "c:1:1: [...]: a section header is [NAME]"},
		{"[profile ]\n", "c:1:1: [profile ]: a [profile NAME] section needs a name"},
		{"[profile a]\n  retry_mode = standard\n", "c:2:3: [profile a]: an indented line is a sub-property only under"},
		{"[profile a]\ns3 =\n  max_queue_size = 1\n  max_queue_size = 2\n", "c:4:3: [profile a].s3.max_queue_size: set again in this block (first at c:3:3)"},
		{"# only a comment\n", "no call to import"},
	}
	for _, c := range cases {
		_, err := Import("aws", []Source{{"c", []byte(c.src)}})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.src, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "wJalrXUtnFEMI") {
			t.Errorf("%q: the error quotes a secret: %v", c.src, err)
		}
	}
}

// TestAWSIniFormat: comments (whole-line and after whitespace in a
// value), CRLF line ends, case in keys and modes, [profile default] and a
// repeated section are read as the SDKs read them.
func TestAWSIniFormat(t *testing.T) {
	src := "; comment\r\n[profile default]\r\nRetry_Mode = STANDARD ; inline\r\nmax_attempts = 4 # four\r\n[profile a]\r\nregion = x\r\n[profile a]\r\nmax_attempts = 2\r\n"
	r, err := Import("aws", []Source{{"c", []byte(src)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`call = "default" # c:2:1 [default]`,
		"retry.attempts = 4 # c:4:16 [default].max_attempts",
		`retry.backoff = "full_jitter" # c:3:14 [default].retry_mode`,
		`call = "a" # c:5:1 [profile a]`,
		"retry.attempts = 2 # c:8:16 [profile a].max_attempts",
	} {
		if !strings.Contains(r.TOML, want) {
			t.Errorf("generated experiment lacks %q:\n%s", want, r.TOML)
		}
	}
	if !strings.Contains(fmt.Sprint(r.Warnings), "c:7:1: [profile a]: section repeated (first at c:5:1)") {
		t.Errorf("warnings %v, want the repeated section", r.Warnings)
	}
}

// FuzzImportAWS: see fuzzImport.
func FuzzImportAWS(f *testing.F) {
	f.Add([]byte("[profile a]\nretry_mode = standard\nmax_attempts = 3\ns3 =\n  x = 1\n"))
	fuzzImport(f, "aws", "f", "aws-config", "aws-sdk-go-v2-shared-config")
}
