// Package importer turns real resilience configurations into ressim
// experiment files: gRPC service configs (JSON), resilience4j's Spring
// Boot application.yml, Envoy v3 clusters and routes, and Istio
// DestinationRule and VirtualService resources. Every generated
// setting carries a comment naming the source file, line and column it
// came from; every source field ressim does not model is a warning; every
// value it cannot represent is an error with its position. The generated
// experiment is a skeleton: one calling service, one service per gRPC
// service, resilience4j instance, Envoy cluster or Istio host, placeholders (marked PLACEHOLDER) for what a config does not
// say (load, service times, pool sizes). docs/import.md has the mapping.
//
// Sources are parsed with gopkg.in/yaml.v3, whose nodes keep line and
// column (JSON is YAML), so messages point into the source file.
//
// A source's names are data, never TOML: every one enters the generated
// experiment through internal/tomltext, as a quoted TOML string or inside a
// one-line comment with its control characters escaped, and callee names
// must be valid ressim names. Diagnostics print on one line with control
// characters escaped (internal/termsafe). An input too large for one
// experiment (more calls than a handler's steps, or over 1 MiB generated)
// is ErrTooLarge.
package importer
