//go:build !js

package playground

import (
	"unicode"
	"unicode/utf8"
)

// badPath reports whether p, a request's decoded URL path, is one no file
// of the site can have: it is not UTF-8, or holds a control character
// (U+0000-U+001F, U+007F-U+009F: %00, %0A, %1B...), a backslash or a
// colon. Handler answers these with 400 Bad Request: served, they reach
// the file system, which refuses them with an error other than "not
// found" (os.DirFS: a NUL byte is EINVAL, and fs.ValidPath refuses
// non-UTF-8 names, and on Windows \ and :), and http.FileServer answers
// any such error with 500. A path that is not even well-formed (bad
// percent-encoding, a raw control character in the request line) never
// reaches Handler: net/http answers it with 400 itself.
func badPath(p string) bool {
	if !utf8.ValidString(p) {
		return true
	}
	for _, r := range p {
		if unicode.IsControl(r) || r == '\\' || r == ':' {
			return true
		}
	}
	return false
}
