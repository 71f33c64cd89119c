package openmetrics

import (
	"fmt"
	"strings"
)

// CatalogueMarkdown returns the metric catalogue as the Markdown table
// docs/observability.md holds: one row per family, with its type, unit,
// labels, the time-series columns (timeseries.csv's metric names) it comes
// from, and its meaning; then the columns not exported.
func CatalogueMarkdown() string {
	var b strings.Builder
	b.WriteString("| metric | type | labels | from timeseries.csv | meaning |\n")
	b.WriteString("| --- | --- | --- | --- | --- |\n")
	maps := Mappings()
	for _, f := range Families() {
		var from []string
		for _, m := range maps {
			if m.Family != f.Name {
				continue
			}
			src := fmt.Sprintf("%s `%s`", m.Key.Owner, m.Key.Name)
			if len(m.Fixed) > 0 {
				src += fmt.Sprintf(" (%s=%q)", m.Fixed[0][0], m.Fixed[0][1])
			}
			if m.Level {
				src += " (level: the site's fallback level)"
			}
			from = append(from, src)
		}
		for _, hm := range HistogramMappings() {
			if hm.Family == f.Name {
				from = append(from, fmt.Sprintf("%s latency histogram `%s` (not in timeseries.csv)", hm.Key.Owner, hm.Key.Name))
			}
		}
		labels := strings.Join(f.Labels, ", ")
		if f.Type == Histogram {
			labels += ", le"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n",
			f.Sample(), f.Type, labels, strings.Join(from, "; "), f.Help)
	}
	b.WriteString("\nNot exported:\n\n")
	for _, m := range notExportedOrdered() {
		fmt.Fprintf(&b, "- %s `%s`: %s.\n", m.key.Owner, m.key.Name, m.why)
	}
	return b.String()
}
