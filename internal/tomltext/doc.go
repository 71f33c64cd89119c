// Package tomltext writes text that came from outside ressim (names,
// keys and file names from an imported configuration or from telemetry)
// into a generated experiment file safely: a string value through
// String, a comment through Comment, a key through Key. Nothing a
// source says can then end a string or a comment, start a line or add a
// table. Editor edits an existing experiment's text in place, keeping
// every other line, for `ressim import --into` and `ressim fit --into`.
//
// The functions are pure and safe for concurrent use; an Editor is not.
package tomltext
