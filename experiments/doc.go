// Package experiments holds ressim's bundled experiment files (*.toml) and
// the tests that run each one and assert the behaviour its comment block
// promises. It has no Go API.
package experiments
