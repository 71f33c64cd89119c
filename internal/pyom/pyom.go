// Package pyom checks OpenMetrics text with the reference parser,
// prometheus_client's openmetrics.parser (Debian package
// python3-prometheus-client), run by a python3 that can import it.
package pyom

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
)

// ErrMissing is returned when no python3 on PATH (or /usr/bin/python3)
// imports prometheus_client.
var ErrMissing = errors.New("no python3 with prometheus_client (install Debian's python3-prometheus-client)")

// script parses stdin with the reference parser, which raises on any
// violation of the format, and prints one line per family: name, type,
// unit, whether it has help, and its sample count.
//
// The script works around two bugs of the parser, each only where the
// installed parser has it, so that every other check stays the parser's:
//
//   - Timestamp comparison (client_python issue 1037, Debian 12 ships
//     0.16): Timestamp(600, 9e8) > Timestamp(601, 0), so a series with
//     sub-second timestamps crossing a whole second "went backwards".
//   - Its de-duplication of samples "due to timestamp truncation" never
//     forgets a series within a metric, so a summary's or a histogram's
//     second and later samples at every timestamp after the first are
//     dropped (a histogram then fails "+Inf bucket missing"): the set of
//     series seen is reset when the timestamp changes, as meant.
const script = `import sys, inspect, re
from prometheus_client.samples import Timestamp
if Timestamp(2, 5) > Timestamp(3, 4):
    Timestamp.__gt__ = lambda a, b: (a.sec, a.nsec) > (b.sec, b.nsec)
    Timestamp.__lt__ = lambda a, b: (a.sec, a.nsec) < (b.sec, b.nsec)
import prometheus_client.openmetrics.parser as p
src = inspect.getsource(p)
bug = re.compile(r"^( *)if sample\.timestamp != group_timestamp or series_id not in group_timestamp_samples:$", re.M)
fixed = r"\1if sample.timestamp != group_timestamp:\n\1    group_timestamp_samples = set()\n\1if series_id not in group_timestamp_samples:"
if bug.search(src):
    exec(compile(bug.sub(fixed, src), p.__file__, "exec"), p.__dict__)
text_string_to_metric_families = p.text_string_to_metric_families
for f in text_string_to_metric_families(sys.stdin.read()):
    print(f.name, f.type, f.unit or "-", "help" if f.documentation else "nohelp", len(f.samples))
`

// Path returns a python3 that imports prometheus_client.openmetrics: the
// one on PATH, else the system's (a pyenv or virtualenv python3 on PATH
// does not see Debian's dist-packages), or ErrMissing.
func Path() (string, error) {
	var cands []string
	if p, err := exec.LookPath("python3"); err == nil {
		cands = append(cands, p)
	}
	cands = append(cands, "/usr/bin/python3")
	for _, p := range cands {
		if exec.Command(p, "-c", "import prometheus_client.openmetrics.parser").Run() == nil {
			return p, nil
		}
	}
	return "", ErrMissing
}

// Family is one family the parser returned.
type Family struct {
	Name, Type, Unit string
	Help             bool
	Samples          int
}

// Parse parses r with the reference parser run by python (from Path). A
// text the parser rejects is an error carrying its message.
func Parse(ctx context.Context, python string, r io.Reader) ([]Family, error) {
	var out, errb bytes.Buffer
	cmd := exec.CommandContext(ctx, python, "-c", script)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = r, &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
			msg = msg[i+1:] // the exception, not the traceback
		}
		return nil, fmt.Errorf("openmetrics parser: %v: %s", err, msg)
	}
	var fams []Family
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if l == "" {
			continue
		}
		var f Family
		var help string
		if _, err := fmt.Sscan(l, &f.Name, &f.Type, &f.Unit, &help, &f.Samples); err != nil {
			return nil, fmt.Errorf("openmetrics parser output %q: %v", l, err)
		}
		if f.Unit == "-" {
			f.Unit = ""
		}
		f.Help = help == "help"
		fams = append(fams, f)
	}
	return fams, nil
}
