package importer

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"gopkg.in/yaml.v3"
)

// field is one key of a mapping node, in source order.
type field struct {
	key   string
	kpos  *yaml.Node
	value *yaml.Node
}

// fields returns a mapping's keys in order, or nil if n is not a mapping.
func fields(n *yaml.Node) []field {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	out := make([]field, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		out = append(out, field{n.Content[i].Value, n.Content[i], n.Content[i+1]})
	}
	return out
}

// parseDoc parses data (YAML or JSON) into its document's root node.
func parseDoc(file string, data []byte) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, fmt.Errorf("%s: empty document", file)
	}
	return doc.Content[0], nil
}

// maxDocs bounds the documents of one multi-document file.
const maxDocs = 10000

// parseDocs parses every document of a multi-document YAML stream
// (documents separated by "---"), skipping empty ones.
func parseDocs(file string, data []byte) ([]*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var out []*yaml.Node
	for i := 0; ; i++ {
		if i >= maxDocs {
			return nil, fmt.Errorf("%s: more than %d documents", file, maxDocs)
		}
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 && doc.Content[0].Kind != 0 {
			if c := doc.Content[0]; !(c.Kind == yaml.ScalarNode && c.Tag == "!!null") {
				out = append(out, c)
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: empty document", file)
	}
	return out, nil
}
