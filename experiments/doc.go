// Package experiments holds ressim's bundled experiment files (*.toml) and
// the tests that run each one and assert the behaviour its comment block
// promises. Its only Go API is FS, the files themselves, embedded (for the
// playground).
package experiments
