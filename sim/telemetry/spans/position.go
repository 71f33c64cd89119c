package spans

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// lineCol turns a byte offset of data into a 1-based line and column
// (the column counts bytes).
func lineCol(data []byte, off int64) (line, col int) {
	if off < 0 {
		off = 0
	}
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	head := data[:off]
	line = bytes.Count(head, []byte("\n")) + 1
	col = int(off) - (bytes.LastIndexByte(head, '\n') + 1) + 1
	return line, col
}

// lineAt returns the 1-based line of byte offset off.
func lineAt(data []byte, off int) int {
	l, _ := lineCol(data, int64(off))
	return l
}

// jsonErr wraps a JSON decoding error of the document that starts at
// byte base of p.data with the file and the line:column it names.
func (p *parser) jsonErr(err error, base int) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	off := int64(-1)
	switch {
	case errors.As(err, &syn):
		off = syn.Offset - 1 // Offset counts the bad byte itself
	case errors.As(err, &typ) && typ.Offset > 0:
		off = typ.Offset
	}
	if off < 0 {
		return fmt.Errorf("spans: %s: %w", p.name, err)
	}
	l, c := lineCol(p.data, int64(base)+off)
	return fmt.Errorf("spans: %s:%d:%d: %w", p.name, l, c, err)
}

// topKeys returns the keys of the JSON object at the start of data (the
// first document when there are several, one a line).
func topKeys(data []byte) (map[string]bool, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var top map[string]json.RawMessage
	if err := dec.Decode(&top); err != nil {
		return nil, err
	}
	keys := make(map[string]bool, len(top))
	for k := range top {
		keys[k] = true
	}
	return keys, nil
}
