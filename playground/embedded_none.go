//go:build !playground_embed

package playground

import "io/fs"

// Embedded returns the built site compiled into this binary, if any: none
// without -tags playground_embed ('ressim serve' then builds the site).
func Embedded() (fs.FS, bool) { return nil, false }
