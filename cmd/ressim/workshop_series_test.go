package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// checkSeries evaluates a time-series claim (see checkClaim): args are
// [variant=V] ENTITY METRIC FROM TO AGG OP VALUE...
func checkSeries(path string, args []string) error {
	variant := ""
	if v, ok := strings.CutPrefix(args[0], "variant="); ok {
		variant, args = v, args[1:]
	}
	if len(args) < 7 {
		return fmt.Errorf("malformed time-series claim")
	}
	from, err1 := strconv.ParseFloat(args[2], 64)
	to, err2 := strconv.ParseFloat(args[3], 64)
	if err1 != nil || err2 != nil {
		return fmt.Errorf("bad interval %s %s", args[2], args[3])
	}
	vals, err := seriesValues(path, variant, args[0], args[1], from, to)
	if err != nil {
		return err
	}
	if len(vals) == 0 {
		return fmt.Errorf("no %s %s intervals in [%g, %g]", args[0], args[1], from, to)
	}
	return compareNum(aggregate(vals, args[4]), args[5], args[6:])
}

// seriesValues reads the metric's values in the intervals inside
// [from, to] seconds (1 µs slack for the decimal times).
func seriesValues(path, variant, entity, metric string, from, to float64) ([]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	head, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	col := map[string]int{}
	for i, h := range head {
		col[h] = i
	}
	var out []float64
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if rec[col["entity"]] != entity || rec[col["metric"]] != metric {
			continue
		}
		if i, ok := col["variant"]; ok && (rec[i] != variant || rec[col["replication"]] != "0") {
			continue
		}
		s, _ := strconv.ParseFloat(rec[col["t_start_s"]], 64)
		e, _ := strconv.ParseFloat(rec[col["t_end_s"]], 64)
		if s < from-1e-6 || e > to+1e-6 {
			continue
		}
		v, err := strconv.ParseFloat(rec[col["value"]], 64)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, v)
	}
}

// aggregate reduces vals by agg (mean, min or max); NaN for an unknown one.
func aggregate(vals []float64, agg string) float64 {
	acc := vals[0]
	if agg == "mean" {
		acc = 0
	}
	for _, v := range vals {
		switch agg {
		case "mean":
			acc += v / float64(len(vals))
		case "min":
			acc = math.Min(acc, v)
		case "max":
			acc = math.Max(acc, v)
		default:
			return math.NaN()
		}
	}
	return acc
}
