package experiments

import (
	"embed"
	"io/fs"
)

//go:embed *.toml
var files embed.FS

// FS returns the bundled experiment files (*.toml at its root), read-only;
// the playground lists and opens them. Safe for concurrent use.
func FS() fs.FS { return files }
