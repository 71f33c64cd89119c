package promtext

import "bytes"

// format is one of the text formats Parse reads.
type format uint8

const (
	formatPrometheus  format = iota // text exposition format 0.0.4
	formatOpenMetrics               // OpenMetrics 1.0 text
	formatDump                      // promtool tsdb dump
)

func (f format) String() string {
	switch f {
	case formatOpenMetrics:
		return "OpenMetrics"
	case formatDump:
		return "promtool tsdb dump"
	}
	return "Prometheus text"
}

// detect tells the format of data: OpenMetrics if a line is "# EOF",
// the tsdb dump if the first line that is neither blank nor a comment
// starts with "{", the Prometheus text format otherwise.
func detect(data []byte) format {
	first := true
	dump := false
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if string(line) == "# EOF" {
			return formatOpenMetrics
		}
		trimmed := bytes.TrimLeft(line, " \t")
		if first && len(trimmed) > 0 && trimmed[0] != '#' {
			first = false
			dump = trimmed[0] == '{'
		}
	}
	if dump {
		return formatDump
	}
	return formatPrometheus
}
