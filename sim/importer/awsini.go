package importer

import (
	"strings"
)

// The AWS shared config file (~/.aws/config) is INI as the AWS SDKs and
// Tools Reference Guide describes it ("Shared config and credentials
// files", "Format of the config file"): [default], [profile NAME],
// [sso-session NAME] and [services NAME] sections; "key = value" lines;
// whole-line comments starting with # or ;, and in a value a # or ;
// after whitespace; a key with an empty value followed by indented
// "subkey = value" lines holds sub-properties (an S3 block, a service of
// [services]).

// iniSection is one section of the file, the entries of every header
// that names it merged in file order.
type iniSection struct {
	kind    string // "profile" (also [default]), "sso-session", "services" or "" (not one the SDKs read)
	name    string // the profile or section name; the whole header text when kind is ""
	label   string // the header as a key path: "[profile x]", "[default]"
	from    src    // the first header
	entries []iniEntry
}

// iniEntry is one "key = value" line; sub are its indented
// sub-properties.
type iniEntry struct {
	key, value string // key lower-cased, value trimmed and without a comment
	from       src    // the key's position
	vfrom      src    // the value's position
	sub        []iniEntry
}

// iniFile is a parsed config file.
type iniFile struct {
	sections []*iniSection
	warns    []Diag
	errs     Errors
}

// parseAWSConfig reads a shared config file. A line that is neither a
// section header, a comment, a property nor a sub-property is an error
// at its position; its text is not quoted (it may hold a secret). A key
// set twice in one section (or in one sub-property block) is an error
// naming both lines. It never panics, whatever the input.
func parseAWSConfig(file string, data []byte) *iniFile {
	f := &iniFile{}
	byLabel := map[string]*iniSection{}
	var cur *iniSection
	var last *iniEntry // the property an indented line may belong to
	lines := strings.Split(string(data), "\n")
	for i, raw := range lines {
		line := strings.TrimSuffix(raw, "\r")
		ln := i + 1
		trimmed := strings.TrimLeft(line, " \t")
		col := len(line) - len(trimmed) + 1
		if trimmed == "" || trimmed[0] == '#' || trimmed[0] == ';' {
			continue
		}
		indented := col > 1
		if !indented && trimmed[0] == '[' {
			last = nil
			cur = f.header(file, ln, col, trimmed, byLabel)
			continue
		}
		at := src{file, ln, col, ""}
		k, v, vcol, ok := iniProperty(trimmed)
		switch {
		case !ok:
			at.key = sectionLabel(cur)
			f.errs = append(f.errs, at.diag("not a section header, a comment or a \"key = value\" line (the line is not quoted: it may hold a secret)"))
			continue
		case cur == nil:
			at.key = k
			f.warns = append(f.warns, at.diag("a property before any [section] belongs to no profile; ignored"))
			continue
		}
		e := iniEntry{key: strings.ToLower(k), value: v, from: at, vfrom: src{file, ln, col + vcol, ""}}
		if indented {
			if last == nil || last.value != "" {
				at.key = sectionLabel(cur)
				f.errs = append(f.errs, at.diag("an indented line is a sub-property only under a \"key =\" line with an empty value"))
				continue
			}
			path := cur.label + "." + last.key + "." + e.key
			e.from.key, e.vfrom.key = path, path
			if prev := findEntry(last.sub, e.key); prev != nil {
				f.errs = append(f.errs, e.from.diag("set again in this block (first at %s:%d:%d): readers disagree on which value wins", prev.from.file, prev.from.line, prev.from.col))
				continue
			}
			last.sub = append(last.sub, e)
			continue
		}
		path := cur.label + "." + e.key
		e.from.key, e.vfrom.key = path, path
		if prev := findEntry(cur.entries, e.key); prev != nil {
			f.errs = append(f.errs, e.from.diag("set again in this profile (first at %s:%d:%d): readers disagree on which value wins, and botocore refuses the file", prev.from.file, prev.from.line, prev.from.col))
			last = nil
			continue
		}
		cur.entries = append(cur.entries, e)
		last = &cur.entries[len(cur.entries)-1]
	}
	return f
}

// header reads a section header line and returns its section. A
// malformed header is reported, and returns a section outside the file,
// so that its properties are read (and checked) but belong to nothing.
func (f *iniFile) header(file string, ln, col int, text string, byLabel map[string]*iniSection) *iniSection {
	at := src{file, ln, col, ""}
	end := strings.IndexByte(text, ']')
	rest := ""
	if end >= 0 {
		rest = strings.TrimSpace(text[end+1:])
	}
	if end < 0 || rest != "" && rest[0] != '#' && rest[0] != ';' {
		at.key = "[...]"
		f.errs = append(f.errs, at.diag("a section header is [NAME], optionally followed by a comment"))
		return &iniSection{label: at.key}
	}
	inner := strings.TrimSpace(text[1:end])
	s := &iniSection{from: at}
	switch {
	case inner == "default":
		s.kind, s.name = "profile", "default"
	case hasWordPrefix(inner, "profile"):
		s.kind, s.name = "profile", strings.TrimSpace(inner[len("profile"):])
	case hasWordPrefix(inner, "sso-session"):
		s.kind, s.name = "sso-session", strings.TrimSpace(inner[len("sso-session"):])
	case hasWordPrefix(inner, "services"):
		s.kind, s.name = "services", strings.TrimSpace(inner[len("services"):])
	default:
		s.name = inner
	}
	if s.kind == "profile" && s.name == "default" {
		s.label = "[default]"
	} else if s.kind != "" {
		s.label = "[" + s.kind + " " + s.name + "]"
	} else {
		s.label = "[" + inner + "]"
	}
	s.from.key = s.label
	if s.kind != "" && s.name == "" {
		f.errs = append(f.errs, s.from.diag("a [%s NAME] section needs a name", s.kind))
		return &iniSection{label: s.label}
	}
	if prev, ok := byLabel[s.label]; ok {
		f.warns = append(f.warns, s.from.diag("section repeated (first at %s:%d:%d): its properties are merged into the first (botocore refuses a repeated section)", prev.from.file, prev.from.line, prev.from.col))
		return prev
	}
	byLabel[s.label] = s
	f.sections = append(f.sections, s)
	return s
}

// hasWordPrefix reports whether s is word, alone or followed by
// whitespace.
func hasWordPrefix(s, word string) bool {
	return s == word || strings.HasPrefix(s, word) && (s[len(word)] == ' ' || s[len(word)] == '\t')
}

// iniProperty splits "key = value # comment" into the key, the value
// (trimmed, without the comment) and the value's 0-based offset in text;
// ok is false when there is no "=" or no key.
func iniProperty(text string) (key, value string, vcol int, ok bool) {
	eq := strings.IndexByte(text, '=')
	if eq < 0 {
		return "", "", 0, false
	}
	key = strings.TrimSpace(text[:eq])
	if key == "" {
		return "", "", 0, false
	}
	v := text[eq+1:]
	lead := len(v) - len(strings.TrimLeft(v, " \t"))
	v = v[lead:]
	for i := 0; i < len(v); i++ {
		if (v[i] == '#' || v[i] == ';') && (i == 0 || v[i-1] == ' ' || v[i-1] == '\t') {
			v = v[:i]
			break
		}
	}
	return key, strings.TrimSpace(v), eq + 1 + lead, true
}

func findEntry(es []iniEntry, key string) *iniEntry {
	for i := range es {
		if es[i].key == key {
			return &es[i]
		}
	}
	return nil
}

func sectionLabel(s *iniSection) string {
	if s == nil {
		return "(before any section)"
	}
	return s.label
}
