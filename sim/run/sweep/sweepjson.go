package sweep

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/ressim/ressim/internal/version"
	"github.com/ressim/ressim/sim/run"
)

// sweepCellJSON is one cell of sweep.json.
type sweepCellJSON struct {
	Variant string   `json:"variant"`
	X       any      `json:"x"`
	Y       any      `json:"y,omitempty"`
	XIndex  int      `json:"x_index"`
	YIndex  *int     `json:"y_index,omitempty"`
	N       int      `json:"n"`
	Value   *float64 `json:"value"`
	Lo      *float64 `json:"ci95_lo"`
	Hi      *float64 `json:"ci95_hi"`
	// Every replication of the cell; re-run one with
	// ressim run FILE --variant V --cell X[,Y] --replication K.
	Runs []run.RunRecordJSON `json:"replications"`
}

// sweepJSON is sweep.json.
type sweepJSON struct {
	Version      string          `json:"ressim_version"`
	Experiment   string          `json:"experiment"`
	Seed         uint64          `json:"seed"`
	Replications int             `json:"replications"`
	Metric       string          `json:"metric"`
	Unit         string          `json:"unit"`
	XPath        string          `json:"x_path"`
	YPath        string          `json:"y_path,omitempty"`
	Cells        []sweepCellJSON `json:"cells"`
}

// writeSweepJSON writes sweep.json one record at a time, reading each
// back from the spool, so that it holds one record whatever the
// replications. The bytes are those of encoding the whole document with
// a json.Encoder indented by two spaces (TestSweepJSONStreamed): the
// document without its cells, then each cell without its records, and
// each record, marshalled at their depths between the brackets.
func writeSweepJSON(w io.Writer, r *Result, stats []CellStat) error {
	doc := sweepJSON{Version: version.Version, Experiment: r.Name, Seed: r.Seed, Replications: r.Replications,
		Metric: r.Sweep.Metric.Name(), Unit: r.unit(), XPath: r.Sweep.X.Path}
	if r.Sweep.Y != nil {
		doc.YPath = r.Sweep.Y.Path
	}
	if len(stats) == 0 {
		return encodeIndented(w, doc) // "cells": null, as an empty slice encodes
	}
	doc.Cells = []sweepCellJSON{}
	var head bytes.Buffer
	if err := encodeIndented(&head, doc); err != nil {
		return err
	}
	out := &jsonList{w: w, indent: "    "}
	out.write(bytes.TrimSuffix(head.Bytes(), []byte("[]\n}\n")))
	for _, s := range stats {
		out.item(func() error { return r.writeCellJSON(out.w, s) })
	}
	out.close("\n}\n")
	return out.err
}

// writeCellJSON writes stat s's cell, at a list item's depth, with its
// records read from the spool one at a time.
func (r *Result) writeCellJSON(w io.Writer, s CellStat) error {
	c := sweepCellJSON{Variant: s.Variant, X: r.Sweep.X.Values[s.X], XIndex: s.X, N: s.N, Value: run.JSONNum(s.Value),
		Lo: run.JSONNum(s.CI95.Lo), Hi: run.JSONNum(s.CI95.Hi), Runs: []run.RunRecordJSON{}}
	if r.Sweep.Y != nil {
		c.Y = r.Sweep.Y.Values[s.Y]
		y := s.Y
		c.YIndex = &y
	}
	b, err := json.MarshalIndent(c, "    ", "  ")
	if err != nil {
		return err
	}
	tail := []byte("[]\n    }")
	if r.Replications == 0 {
		_, err = w.Write(b)
		return err
	}
	out := &jsonList{w: w, indent: "        "}
	out.write(bytes.TrimSuffix(b, tail))
	err = r.spool.each(r.cell(s.v, s.Y, s.X), r.Replications, func(rec run.RunRecord) error {
		out.item(func() error {
			rb, err := json.MarshalIndent(rec.JSON(), out.indent, "  ")
			out.write(rb)
			return err
		})
		return out.err
	})
	if err != nil {
		return err
	}
	out.close("\n    }")
	return out.err
}

// jsonList writes the items of an indented JSON list, its items at
// indent, keeping the first error.
type jsonList struct {
	w      io.Writer
	indent string
	n      int
	err    error
}

func (l *jsonList) write(b []byte) {
	if l.err == nil {
		_, l.err = l.w.Write(b)
	}
}

// item writes the separator before an item, then the item with fill.
func (l *jsonList) item(fill func() error) {
	sep := ",\n"
	if l.n == 0 {
		sep = "[\n"
	}
	l.n++
	l.write([]byte(sep + l.indent))
	if l.err == nil {
		l.err = fill()
	}
}

// close ends the list (its bracket two spaces left of the items), then
// writes rest.
func (l *jsonList) close(rest string) {
	l.write([]byte("\n" + l.indent[2:] + "]" + rest))
}

func encodeIndented(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
