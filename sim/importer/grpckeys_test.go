package importer

import (
	"regexp"
	"strings"
	"testing"
)

// TestGRPCKeySpellings: gRPC accepts a service config's keys in three
// spellings (issue 24: grpc-go's own retry example, written with
// MaxAttempts, was refused): the canonical lowerCamelCase, protobuf's
// proto field names (snake_case) and, through grpc-go's encoding/json,
// any case. Each imports to the same experiment but for the source
// positions; two spellings of one key in one object are refused.
func TestGRPCKeySpellings(t *testing.T) {
	const canonical = `{"methodConfig": [{"name": [{"service": "shop.Cart", "method": "Get"}], "timeout": "1s",
  "retryPolicy": {"maxAttempts": 4, "initialBackoff": "0.01s", "maxBackoff": "0.5s", "backoffMultiplier": 2,
  "retryableStatusCodes": ["UNAVAILABLE"]}}], "retryThrottling": {"maxTokens": 10, "tokenRatio": 0.1}}`
	spell := map[string]func(string) string{
		"Go's any case": func(k string) string { return strings.ToUpper(k[:1]) + k[1:] },
		"proto names": func(k string) string {
			return regexp.MustCompile(`[A-Z]`).ReplaceAllStringFunc(k, func(c string) string { return "_" + strings.ToLower(c) })
		},
	}
	keys := regexp.MustCompile(`"([a-zA-Z]+)":`)
	positions := regexp.MustCompile(` # \S+:\d+:\d+ `)
	want := importText(t, canonical)
	for name, f := range spell {
		src := keys.ReplaceAllStringFunc(canonical, func(m string) string { return `"` + f(m[1:len(m)-2]) + `":` })
		if src == canonical {
			t.Fatalf("%s: the spelling changed nothing", name)
		}
		got := importText(t, src)
		if positions.ReplaceAllString(got, " # ") != positions.ReplaceAllString(want, " # ") {
			t.Errorf("%s:\n%s\nimports otherwise than the canonical spelling:\n%s", name, got, want)
		}
	}
	dup := `{"methodConfig": [{"name": [{"service": "a"}], "retryPolicy": {"maxAttempts": 3, "MaxAttempts": 4,
  "initialBackoff": "1s", "maxBackoff": "2s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}}]}`
	_, err := Import("grpc", []Source{{Name: "dup.json", Data: []byte(dup)}})
	if err == nil || !strings.Contains(err.Error(), `"MaxAttempts" is maxAttempts again`) || !strings.Contains(err.Error(), "dup.json:1:") {
		t.Errorf("two spellings of maxAttempts: %v", err)
	}
}

func importText(t *testing.T, src string) string {
	t.Helper()
	res, err := Import("grpc", []Source{{Name: "sc.json", Data: []byte(src)}})
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return res.TOML
}
