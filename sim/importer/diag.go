package importer

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ressim/ressim/internal/termsafe"
	"github.com/ressim/ressim/internal/tomltext"
)

// Diag is a warning or an error about a source file, with its position.
type Diag struct {
	File      string
	Line, Col int
	// Key is the source's path to the field, e.g. "methodConfig[0].timeout".
	Key string
	Msg string
}

// String is "FILE:LINE:COL: KEY: MSG" on one line: the file name, key
// and message may quote the source, so control characters in them are
// escaped (termsafe.Line) and cannot forge a line or drive a terminal.
func (d Diag) String() string {
	return termsafe.Line(fmt.Sprintf("%s:%d:%d: %s: %s", d.File, d.Line, d.Col, d.Key, d.Msg))
}

// Errors is the error Import returns for unsupported or invalid values:
// every one, in source order.
type Errors []Diag

func (e Errors) Error() string {
	lines := make([]string, len(e))
	for i, d := range e {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}

// src is a position in a source file, for diagnostics and comments.
type src struct {
	file      string
	line, col int
	key       string
}

func at(file string, n *yaml.Node, key string) src {
	return src{file, n.Line, n.Column, key}
}

// comment is the TOML comment naming where a setting came from. The file
// name and the key path hold what the input wrote (a resilience4j config
// name, a YAML key), escaped onto one line by commentText.
func (s src) comment() string {
	return fmt.Sprintf("# %s:%d:%d %s", tomltext.Comment(s.file), s.line, s.col, tomltext.Comment(s.key))
}

func (s src) diag(format string, a ...any) Diag {
	return Diag{s.file, s.line, s.col, s.key, fmt.Sprintf(format, a...)}
}
