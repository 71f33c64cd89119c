package lint

import (
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
)

// SARIF 2.1.0 (OASIS, https://docs.oasis-open.org/sarif/sarif/v2.1.0/):
// only the properties ressim fills.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool       sarifTool      `json:"tool"`
		Results    []sarifResult  `json:"results"`
		Properties *sarifRunProps `json:"properties,omitempty"`
	}
	// sarifRunProps is the run's property bag: the --simulate scenarios.
	sarifRunProps struct {
		Scenarios []ScenarioResult `json:"scenarios"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		InformationURI string      `json:"informationUri"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string       `json:"id"`
		Name                 string       `json:"name"`
		ShortDescription     sarifMessage `json:"shortDescription"`
		FullDescription      sarifMessage `json:"fullDescription"`
		HelpURI              string       `json:"helpUri"`
		DefaultConfiguration sarifConfig  `json:"defaultConfiguration"`
	}
	sarifConfig struct {
		Level string `json:"level"`
	}
	sarifMessage struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID       string             `json:"ruleId"`
		RuleIndex    int                `json:"ruleIndex"`
		Level        string             `json:"level"`
		Message      sarifMessage       `json:"message"`
		Locations    []sarifLocation    `json:"locations"`
		Suppressions []sarifSuppression `json:"suppressions,omitempty"`
		Properties   map[string]string  `json:"properties"`
	}
	sarifLocation struct {
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           *sarifRegion  `json:"region,omitempty"`
	}
	sarifArtifact struct {
		URI string `json:"uri"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn"`
	}
	sarifSuppression struct {
		Kind          string `json:"kind"`
		Justification string `json:"justification"`
	}
)

// SARIFSchema is the $schema URI the SARIF output names.
const SARIFSchema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

// WriteSARIF writes the report as a SARIF 2.1.0 log with one run: every
// rule in the driver, every finding a result, suppressed findings as
// results with an inSource suppression carrying the comment's reason.
func WriteSARIF(w io.Writer, r *Report) error {
	rules := Rules()
	index := map[string]int{}
	drv := sarifDriver{Name: "ressim lint", InformationURI: "https://github.com/ressim/ressim/blob/main/docs/lint.md"}
	for i, rl := range rules {
		index[rl.ID] = i
		drv.Rules = append(drv.Rules, sarifRule{ID: rl.ID, Name: ruleName(rl.Title),
			ShortDescription: sarifMessage{rl.Title}, FullDescription: sarifMessage{rl.Rationale},
			HelpURI:              drv.InformationURI + "#" + strings.ToLower(rl.ID),
			DefaultConfiguration: sarifConfig{string(rl.Severity)}})
	}
	results := []sarifResult{}
	for _, f := range r.Findings {
		results = append(results, sarifOf(f, index, nil))
	}
	for _, s := range r.Suppressed {
		results = append(results, sarifOf(s.Finding, index, []sarifSuppression{{"inSource", s.Reason}}))
	}
	run := sarifRun{Tool: sarifTool{drv}, Results: results}
	if len(r.Scenarios) > 0 {
		run.Properties = &sarifRunProps{r.Scenarios}
	}
	log := sarifLog{Schema: SARIFSchema, Version: "2.1.0", Runs: []sarifRun{run}}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}

func sarifOf(f Finding, index map[string]int, sup []sarifSuppression) sarifResult {
	props := map[string]string{"variants": variantLabel(f.Variant, f.Variants), "key": f.Key}
	if m := f.Measured; m != nil {
		props["measured_amplification"] = strconv.FormatFloat(m.Amplification, 'f', 2, 64)
		props["measured_scenario"], props["measured_service"], props["measured_verdict"] = m.Scenario, m.Service, m.Verdict
	}
	uri, generated := sarifURI(f.File)
	loc := sarifPhysical{ArtifactLocation: sarifArtifact{uri}, Region: &sarifRegion{f.Line, f.Col}}
	if generated {
		// The finding is on a line of the experiment generated from the
		// file (lint --import could not map it back): that line is not
		// in the file, so the location names the file alone.
		loc.Region = nil
		props["generated_line"] = strconv.Itoa(f.Line)
	}
	return sarifResult{RuleID: f.Rule, RuleIndex: index[f.Rule], Level: string(f.Severity),
		Message:      sarifMessage{f.Message},
		Locations:    []sarifLocation{{loc}},
		Suppressions: sup,
		Properties:   props}
}

// ImportedSuffix marks the name of an experiment that lint --import
// generated from a configuration file: "FILE (imported)".
const ImportedSuffix = " (imported)"

// sarifURI turns a finding's file into a relative URI reference, as
// SARIF's artifactLocation.uri must be: slash-separated, each segment
// percent-encoded (a space, "#" or "%" in a file name would otherwise
// make an invalid URI, and "(imported)" did). generated reports a file
// named with ImportedSuffix, whose lines are the generated experiment's.
func sarifURI(file string) (uri string, generated bool) {
	file, generated = strings.CutSuffix(file, ImportedSuffix)
	segs := strings.Split(filepath.ToSlash(file), "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	uri = strings.Join(segs, "/")
	if filepath.IsAbs(file) {
		uri = "file://" + uri
		if !strings.HasPrefix(uri, "file:///") { // a Windows drive: file:///C:/...
			uri = "file:///" + strings.TrimPrefix(uri, "file://")
		}
	}
	return uri, generated
}

// ruleName turns a title into SARIF's PascalCase rule name.
func ruleName(title string) string {
	var b strings.Builder
	for _, w := range strings.FieldsFunc(title, func(r rune) bool { return r == ' ' || r == '-' || r == '\'' }) {
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	return b.String()
}

// WriteJSON writes the report as indented JSON (the Report type's fields).
func WriteJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
