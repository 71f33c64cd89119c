// Package version holds ressim's version string, written into every
// summary so that results can be traced to the code that produced them.
package version

// Version is ressim's semantic version. It is a constant, not build
// metadata, so that outputs are byte-identical across builds of one
// version.
const Version = "0.1.0"
