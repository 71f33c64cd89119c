// Package plots holds the committed figures of the bundled experiments
// (see README.md) and the test that keeps them current: plots_test.go
// regenerates every figure from its experiment and fails if a committed
// file differs; `go test ./plots -update` (or scripts/plots.sh) rewrites
// them.
package plots
