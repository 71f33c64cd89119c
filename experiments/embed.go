package experiments

import (
	"embed"
	"io/fs"
)

// The bundled experiment files at the root, with the alerting rules and
// game-day runbooks they name.
//
//go:embed *.toml alerts/*.yml gameday/*.md
var files embed.FS

// FS returns the bundled experiment files (*.toml at its root, which the
// playground lists), the alerting rules their [alerts] name
// (alerts/*.yml) and the game days' runbooks (gameday/*.md), read-only;
// the playground lists and opens them. Safe for concurrent use.
func FS() fs.FS { return files }
