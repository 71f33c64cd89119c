package main

import (
	"encoding/csv"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// checkEvents evaluates a claim about events.csv (the run's state
// changes, in time order). args are KIND SUBJECT then either
//
//	sequence FROM->TO ...      the moves of that kind and subject, exactly
//	to=STATE N at OP VALUE...  the instant (s) of the N-th (from 1) move to STATE
//
// e.g. "breaker page->recommendations/call to=open 2 at within 35 36":
// the breaker re-opens between 35 s and 36 s.
func checkEvents(path string, args []string) error {
	if len(args) < 3 {
		return fmt.Errorf("malformed events claim")
	}
	rows, err := readEvents(path, args[0], args[1])
	if err != nil {
		return err
	}
	if args[2] == "sequence" {
		var got []string
		for _, r := range rows {
			got = append(got, r.from+"->"+r.to)
		}
		if g, w := strings.Join(got, " "), strings.Join(args[3:], " "); g != w {
			return fmt.Errorf("moves %q, want %q", g, w)
		}
		return nil
	}
	state, ok := strings.CutPrefix(args[2], "to=")
	if !ok || len(args) < 7 || args[4] != "at" {
		return fmt.Errorf("malformed events claim")
	}
	n, err := strconv.Atoi(args[3])
	if err != nil || n < 1 {
		return fmt.Errorf("bad ordinal %q", args[3])
	}
	for _, r := range rows {
		if r.to == state {
			if n--; n == 0 {
				return compareNum(r.at, args[5], args[6:])
			}
		}
	}
	return fmt.Errorf("fewer than %s %s moves of %s to %s", args[3], args[0], args[1], state)
}

type eventRow struct {
	at       float64
	from, to string
}

// readEvents reads the rows of events.csv of one kind and subject.
func readEvents(path, kind, subject string) ([]eventRow, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil || len(recs) == 0 {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	var out []eventRow
	for _, r := range recs[1:] {
		if r[col["kind"]] != kind || r[col["subject"]] != subject {
			continue
		}
		at, err := strconv.ParseFloat(r[col["t_s"]], 64)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, eventRow{at: at, from: r[col["from"]], to: r[col["to"]]})
	}
	return out, nil
}
