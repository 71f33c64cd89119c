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

// fields returns a mapping's keys in order, or nil if n is not a
// mapping, with YAML's anchors resolved as every YAML loader resolves
// them (so that no setting written through one is dropped): a value that
// is an alias (*name) is the anchored node, and a merge key (<<: *name,
// or a list of them) adds the merged mappings' keys that the mapping does
// not set itself, in place of the merge key, the first listed winning.
// Merges nest at most maxMergeDepth deep; deeper ones are left out.
func fields(n *yaml.Node) []field {
	return mergedFields(deref(n), 0, map[*yaml.Node]bool{})
}

// maxMergeDepth bounds merges of merges: a mapping merged into one merged
// into another, and so on. Configurations use one or two.
const maxMergeDepth = 8

// mergedFields is fields of n, merges expanded; seen holds the mappings
// already merged in this call, each merged once (a second merge of one
// mapping adds nothing, since the first wins), so that a merge bomb (the
// same anchor merged many times at many levels) costs its size, not the
// product of its widths.
func mergedFields(n *yaml.Node, depth int, seen map[*yaml.Node]bool) []field {
	if n == nil || n.Kind != yaml.MappingNode || seen[n] {
		return nil
	}
	seen[n] = true
	out := make([]field, 0, len(n.Content)/2)
	own := make(map[string]bool, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		own[n.Content[i].Value] = true
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], deref(n.Content[i+1])
		if k.Tag != "!!merge" || depth >= maxMergeDepth {
			out = append(out, field{k.Value, k, v})
			continue
		}
		merged := []*yaml.Node{v}
		if v.Kind == yaml.SequenceNode {
			merged = v.Content
		}
		for _, m := range merged {
			for _, f := range mergedFields(deref(m), depth+1, seen) {
				if !own[f.key] {
					own[f.key] = true // the first merged mapping that sets a key wins
					out = append(out, f)
				}
			}
		}
	}
	return out
}

// deref returns the node an alias names, or n itself.
func deref(n *yaml.Node) *yaml.Node {
	if n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		return n.Alias
	}
	return n
}

// parseDoc parses data (YAML or JSON) into its document's root node.
func parseDoc(file string, data []byte) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if err := checkDuplicateKeys(file, &doc); err != nil {
		return nil, err
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
		if err := checkDuplicateKeys(file, &doc); err != nil {
			return nil, err
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

// checkDuplicateKeys refuses a mapping that sets one key twice, naming
// both lines. A YAML loader keeps one of them, the JSON parsers the last,
// so the setting that wins is a matter of the tool, and the import would
// take one silently; yaml.v3 checks duplicates only when decoding into a
// map, not into nodes. Aliases are not followed (their anchor is checked
// where it stands), and the walk is iterative, so that neither a merge
// bomb nor deep nesting costs more than the document's size.
func checkDuplicateKeys(file string, root *yaml.Node) error {
	stack := []*yaml.Node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.Kind == yaml.MappingNode {
			seen := make(map[string]*yaml.Node, len(n.Content)/2)
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				if k.Kind == yaml.ScalarNode {
					if first, dup := seen[k.Value]; dup {
						return fmt.Errorf("%s:%d:%d: key %q set again (first at line %d): tools disagree on which one wins, so it is refused",
							file, k.Line, k.Column, k.Value, first.Line)
					}
					seen[k.Value] = k
				}
			}
		}
		if n.Kind != yaml.AliasNode {
			stack = append(stack, n.Content...)
		}
	}
	return nil
}
