package run

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/ressim/ressim/internal/version"
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
	Runs []runRecordJSON `json:"replications"`
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

// writeSweepJSON writes sweep.json one cell at a time, reading each
// cell's records back from the spool, so that it never holds more than
// one cell's. The bytes are those of encoding the whole document with a
// json.Encoder indented by two spaces (TestSweepJSONStreamed): the
// document without its cells, then each cell marshalled at its depth
// (four spaces) between the brackets.
func writeSweepJSON(w io.Writer, r *SweepResult, stats []CellStat) error {
	doc := sweepJSON{Version: version.Version, Experiment: r.Name, Seed: r.Seed, Replications: r.Replications,
		Metric: r.Sweep.Metric, Unit: r.unit(), XPath: r.Sweep.X.Path}
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
	tail := []byte("[]\n}\n")
	if _, err := w.Write(bytes.TrimSuffix(head.Bytes(), tail)); err != nil {
		return err
	}
	for i, s := range stats {
		c, err := r.cellJSON(s)
		if err != nil {
			return err
		}
		b, err := json.MarshalIndent(c, "    ", "  ")
		if err != nil {
			return err
		}
		sep := ",\n    "
		if i == 0 {
			sep = "[\n    "
		}
		if _, err := io.WriteString(w, sep); err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, "\n  ]\n}\n")
	return err
}

// cellJSON is stat s's cell with its records, read from the spool.
func (r *SweepResult) cellJSON(s CellStat) (sweepCellJSON, error) {
	recs, err := r.spool.records(r.cell(s.v, s.Y, s.X), r.Replications)
	if err != nil {
		return sweepCellJSON{}, err
	}
	c := sweepCellJSON{Variant: s.Variant, X: r.Sweep.X.Values[s.X], XIndex: s.X, N: s.N, Value: num(s.Value),
		Lo: num(s.CI95.Lo), Hi: num(s.CI95.Hi), Runs: recordsJSON(recs)}
	if r.Sweep.Y != nil {
		c.Y = r.Sweep.Y.Values[s.Y]
		y := s.Y
		c.YIndex = &y
	}
	return c, nil
}

func encodeIndented(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
