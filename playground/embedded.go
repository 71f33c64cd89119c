//go:build playground_embed && !js

package playground

import (
	"embed"
	"io/fs"
)

// dist is the built site, put there by 'go run ./playground/build -o
// playground/dist' before 'go build -tags playground_embed'.
//
//go:embed all:dist
var dist embed.FS

// Embedded returns the built site compiled into this binary, if any.
func Embedded() (fs.FS, bool) {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		return nil, false
	}
	return sub, true
}
