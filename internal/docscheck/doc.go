// Package docscheck holds repository-wide checks on ressim's documentation
// and code comments. It has no code of its own: its tests walk the module
// from its root and fail on text that breaks the documentation rules, such
// as an unnamed source (see citations_test.go and docs/policies.md,
// section Sources).
package docscheck
