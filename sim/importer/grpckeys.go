package importer

import (
	"strings"

	"gopkg.in/yaml.v3"
)

// The fields of each object of a gRPC service config, by their canonical
// (lowerCamelCase) JSON names (grpc/doc/service_config.md and
// grpc/src/proto/grpc/service_config/service_config.proto).
var (
	grpcServiceConfigKeys = []string{"methodConfig", "retryThrottling", "loadBalancingPolicy", "loadBalancingConfig", "healthCheckConfig"}
	grpcMethodConfigKeys  = []string{"name", "timeout", "retryPolicy", "hedgingPolicy", "waitForReady", "maxRequestMessageBytes", "maxResponseMessageBytes"}
	grpcNameKeys          = []string{"service", "method"}
	grpcRetryPolicyKeys   = []string{"maxAttempts", "initialBackoff", "maxBackoff", "backoffMultiplier", "retryableStatusCodes"}
	grpcHedgingPolicyKeys = []string{"maxAttempts", "hedgingDelay", "nonFatalStatusCodes"}
	grpcThrottlingKeys    = []string{"maxTokens", "tokenRatio"}
)

// grpcFields is fields(n) with each key spelt as one of known when it
// names it in another spelling gRPC accepts: protobuf's JSON mapping
// accepts the proto field name (max_attempts) besides the lowerCamelCase
// one (grpc-java, grpc-core), and grpc-go decodes with encoding/json,
// whose field matching ignores case (its own retry example writes
// MaxAttempts). Two spellings of one field in one object are an error,
// as the last would silently win in grpc-go; unknown keys are returned
// as written, for the caller's warning.
func (g *grpcReader) grpcFields(n *yaml.Node, parent string, known []string) []field {
	fs := fields(n)
	seen := make(map[string]*yaml.Node, len(fs))
	out := fs[:0]
	for _, f := range fs {
		if k, ok := grpcCanonical(f.key, known); ok {
			if first, dup := seen[k]; dup {
				g.fail(at(g.file, f.kpos, parent+"."+f.key), "%q is %s again (first at line %d): gRPC would keep only one", f.key, k, first.Line)
				continue
			}
			seen[k] = f.kpos
			f.key = k
		}
		out = append(out, f)
	}
	return out
}

// grpcCanonical returns the name in known that key spells, matching as
// protobuf's JSON parsers and grpc-go do: exactly, as a snake_case proto
// name, or ignoring case.
func grpcCanonical(key string, known []string) (string, bool) {
	folded := strings.ReplaceAll(key, "_", "")
	for _, k := range known {
		if key == k || strings.EqualFold(folded, k) {
			return k, true
		}
	}
	return "", false
}
