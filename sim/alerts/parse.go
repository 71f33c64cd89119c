package alerts

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// promtool test rules reports a failed test as below (promtool 2.42; the
// tests in parse_test.go pin the format):
//
//	    expr: "ALERTS", time: 1m5s,
//	        exp: nil
//	        got: {__name__="ALERTS", alertname="X", alertstate="firing", k="v"} 1E+00
//
//	    alertname: X, time: 40s,
//	        exp:[],
//	        got:[
//	            0:
//	              Labels:{alertname="X", k="v"}
//	              Annotations:{summary="..."}
//	            ]
//
// The generated tests expect nothing, so each report lists what was there.

// active is one ALERTS sample: an alert pending or firing at a time.
type active struct {
	at     time.Duration
	labels [][2]string // without __name__ and alertstate
	state  string      // "pending" or "firing"
}

// gotAlert is one firing alert an alert_rule_test reported.
type gotAlert struct {
	at        time.Duration
	alertname string
	f         firing
}

// parseReport reads promtool's output into the ALERTS samples and firing
// alerts it reported.
func parseReport(out []byte) (acts []active, fired []gotAlert, err error) {
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	var at time.Duration
	var alertname string
	for n := 1; sc.Scan(); n++ {
		l := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(l, `expr: "ALERTS", time: `):
			at, err = parseDuration(strings.TrimSuffix(strings.TrimPrefix(l, `expr: "ALERTS", time: `), ","))
		case strings.HasPrefix(l, "alertname: "):
			alertname, at, err = parseAlertHeader(l)
		case strings.HasPrefix(l, "got: "):
			var a []active
			a, err = parseSamples(strings.TrimPrefix(l, "got: "), at)
			acts = append(acts, a...)
		case strings.HasPrefix(l, "Labels:"):
			var ls [][2]string
			ls, _, err = parseLabels(strings.TrimPrefix(l, "Labels:"))
			fired = append(fired, gotAlert{at: at, alertname: alertname, f: firing{labels: without(ls, "alertname")}})
		case strings.HasPrefix(l, "Annotations:") && len(fired) > 0:
			fired[len(fired)-1].f.annotations, _, err = parseLabels(strings.TrimPrefix(l, "Annotations:"))
		}
		if err != nil {
			return nil, nil, fmt.Errorf("promtool output line %d %q: %w", n, l, err)
		}
	}
	return acts, fired, sc.Err()
}

func parseAlertHeader(l string) (string, time.Duration, error) {
	name, rest, ok := strings.Cut(strings.TrimPrefix(l, "alertname: "), ", time: ")
	if !ok {
		return "", 0, fmt.Errorf("no time")
	}
	d, err := parseDuration(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), ",")))
	return name, d, err
}

// parseSamples reads "{labels} value, {labels} value ...".
func parseSamples(s string, at time.Duration) ([]active, error) {
	var out []active
	for s = strings.TrimLeft(s, ", "); s != "" && s != "nil"; s = strings.TrimLeft(s, ", ") {
		ls, rest, err := parseLabels(s)
		if err != nil {
			return nil, err
		}
		rest = strings.TrimLeft(rest, " ")
		if i := strings.IndexAny(rest, ", "); i >= 0 {
			rest = rest[i:]
		} else {
			rest = ""
		}
		s = rest
		a := active{at: at}
		for _, l := range ls {
			switch l[0] {
			case "__name__":
			case "alertstate":
				a.state = l[1]
			default:
				a.labels = append(a.labels, l)
			}
		}
		out = append(out, a)
	}
	return out, nil
}

// parseLabels reads `{a="x", b="y"}` (values Go-quoted) from the start of
// s and returns the pairs and the rest.
func parseLabels(s string) ([][2]string, string, error) {
	if !strings.HasPrefix(s, "{") {
		return nil, s, fmt.Errorf("no label set")
	}
	s = s[1:]
	var out [][2]string
	for {
		s = strings.TrimLeft(s, ", ")
		if strings.HasPrefix(s, "}") {
			return out, s[1:], nil
		}
		name, rest, ok := strings.Cut(s, "=")
		if !ok {
			return nil, s, fmt.Errorf("label without =")
		}
		q, err := strconv.QuotedPrefix(rest)
		if err != nil {
			return nil, s, fmt.Errorf("label %s: %w", name, err)
		}
		v, _ := strconv.Unquote(q)
		out = append(out, [2]string{name, v})
		s = rest[len(q):]
	}
}

func without(ls [][2]string, name string) [][2]string {
	var out [][2]string
	for _, l := range ls {
		if l[0] != name {
			out = append(out, l)
		}
	}
	return out
}

// parseDuration reads a Prometheus duration as promtool prints it:
// 1h2m3s, 500ms, 0s (units y, w, d, h, m, s, ms).
func parseDuration(s string) (time.Duration, error) {
	units := []struct {
		suffix string
		d      time.Duration
	}{{"ms", time.Millisecond}, {"y", 365 * 24 * time.Hour}, {"w", 7 * 24 * time.Hour}, {"d", 24 * time.Hour},
		{"h", time.Hour}, {"m", time.Minute}, {"s", time.Second}}
	if s == "" {
		return 0, fmt.Errorf("empty duration")
	}
	var total time.Duration
	for s != "" {
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 {
			return 0, fmt.Errorf("duration %q: no number", s)
		}
		n, _ := strconv.ParseInt(s[:i], 10, 64)
		s = s[i:]
		ok := false
		for _, u := range units {
			if strings.HasPrefix(s, u.suffix) {
				total += time.Duration(n) * u.d
				s = s[len(u.suffix):]
				ok = true
				break
			}
		}
		if !ok {
			return 0, fmt.Errorf("duration: unknown unit in %q", s)
		}
	}
	return total, nil
}
