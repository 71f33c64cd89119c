package output

import "io"

// WriteResult writes an analysis command's JSON file (fill writes it)
// and, when fig is not nil, its figure into sink: the files written and
// the figure's warnings, or the JSON file's error. margin and
// hysteresis write their outputs through it.
func WriteResult(sink Sink, jsonFile string, fill func(io.Writer) error, fig *Figure) (files, warnings []string, err error) {
	p, err := sink.File(jsonFile, fill)
	if err != nil {
		return nil, nil, err
	}
	files = append(files, p)
	if fig != nil {
		paths, warn := sink.Figure(*fig)
		files = append(files, paths...)
		warnings = append(warnings, warn...)
	}
	return files, warnings, nil
}
