package promapi

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ressim/ressim/internal/input"
	"github.com/ressim/ressim/sim/telemetry"
	"github.com/ressim/ressim/sim/telemetry/promtext"
)

// DefaultMaxBytes bounds a saved or fetched answer: 64 MiB.
const DefaultMaxBytes int64 = 64 << 20

// APIError is an answer with status "error": Prometheus' error type
// (bad_data, execution, timeout, ...) and message.
type APIError struct {
	Type, Msg string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("prometheus error %s: %s", e.Type, e.Msg)
}

// response is the envelope of every API answer.
type response struct {
	Status    string `json:"status"`
	ErrorType string `json:"errorType"`
	Error     string `json:"error"`
	Data      *struct {
		ResultType string          `json:"resultType"`
		Result     json.RawMessage `json:"result"`
	} `json:"data"`
}

// result is one series of a matrix (Values) or vector (Value) answer.
type result struct {
	Metric     map[string]string `json:"metric"`
	Values     []pair            `json:"values"`
	Value      *pair             `json:"value"`
	Histograms json.RawMessage   `json:"histograms"`
	Histogram  json.RawMessage   `json:"histogram"`
}

// pair is one [time, "value"] sample.
type pair struct {
	T json.Number
	V string
}

func (p *pair) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	if len(raw) != 2 {
		return fmt.Errorf("a sample has %d elements, want [time, \"value\"]", len(raw))
	}
	if err := json.Unmarshal(raw[0], &p.T); err != nil {
		return fmt.Errorf("sample time: %w", err)
	}
	if err := json.Unmarshal(raw[1], &p.V); err != nil {
		return fmt.Errorf("sample value: %w", err)
	}
	return nil
}

// point converts a sample: seconds to milliseconds, the value string
// to a float.
func (p pair) point() (telemetry.Point, error) {
	s, err := strconv.ParseFloat(string(p.T), 64)
	ms := math.Round(s * 1000)
	if err != nil || math.IsNaN(ms) || ms < math.MinInt64 || ms >= math.MaxInt64 {
		return telemetry.Point{}, fmt.Errorf("invalid sample time %q", p.T)
	}
	v, err := strconv.ParseFloat(p.V, 64)
	if err != nil || strings.ContainsAny(p.V, "pPxX_") {
		return telemetry.Point{}, fmt.Errorf("invalid sample value %q", p.V)
	}
	return telemetry.Point{T: int64(ms), V: v}, nil
}

// ParseQueryRange parses a query_range (or query) answer, named name in
// errors and origins.
func ParseQueryRange(name string, data []byte) (telemetry.Set, error) {
	var resp response
	if err := json.Unmarshal(data, &resp); err != nil {
		return telemetry.Set{}, fmt.Errorf("%s: not a Prometheus API answer: %w", name, err)
	}
	switch resp.Status {
	case "success":
	case "error":
		return telemetry.Set{}, fmt.Errorf("%s: %w", name, &APIError{Type: resp.ErrorType, Msg: resp.Error})
	default:
		return telemetry.Set{}, fmt.Errorf("%s: answer status %q, want success or error", name, resp.Status)
	}
	if resp.Data == nil {
		return telemetry.Set{}, fmt.Errorf("%s: answer has no data", name)
	}
	rt := resp.Data.ResultType
	if rt != "matrix" && rt != "vector" {
		return telemetry.Set{}, fmt.Errorf("%s: result type %q is not series (want matrix or vector)", name, rt)
	}
	var results []result
	if err := json.Unmarshal(resp.Data.Result, &results); err != nil {
		return telemetry.Set{}, fmt.Errorf("%s: %s result: %w", name, rt, err)
	}
	return collect(name, rt, results)
}

// collect turns the results into a sorted set, within the budgets.
func collect(name, rt string, results []result) (telemetry.Set, error) {
	var set telemetry.Set
	seen := make(map[string]bool, len(results))
	points := 0
	for i, r := range results {
		if len(set.Series) >= promtext.DefaultMaxSeries {
			return telemetry.Set{}, &promtext.BudgetError{File: name, Budget: "MaxSeries", Limit: promtext.DefaultMaxSeries}
		}
		if hasData(r.Histograms) || hasData(r.Histogram) {
			return telemetry.Set{}, fmt.Errorf("%s: result %d: native histograms are not supported", name, i)
		}
		s := series(name, r.Metric)
		id := s.ID()
		if seen[id] {
			return telemetry.Set{}, fmt.Errorf("%s: series %s given twice", name, id)
		}
		seen[id] = true
		pairs := r.Values
		if rt == "vector" {
			if r.Value == nil {
				return telemetry.Set{}, fmt.Errorf("%s: vector result %s has no value", name, id)
			}
			pairs = []pair{*r.Value}
		}
		if len(pairs) == 0 {
			continue // a result without samples is no series
		}
		points += len(pairs)
		if points > promtext.DefaultMaxPoints {
			return telemetry.Set{}, &promtext.BudgetError{File: name, Budget: "MaxPoints", Limit: promtext.DefaultMaxPoints}
		}
		s.Points = make([]telemetry.Point, len(pairs))
		for j, p := range pairs {
			pt, err := p.point()
			if err != nil {
				return telemetry.Set{}, fmt.Errorf("%s: series %s, sample %d: %w", name, id, j, err)
			}
			s.Points[j] = pt
		}
		slices.SortStableFunc(s.Points, func(a, b telemetry.Point) int { return cmp.Compare(a.T, b.T) })
		for j := 1; j < len(s.Points); j++ {
			if s.Points[j].T == s.Points[j-1].T {
				return telemetry.Set{}, fmt.Errorf("%s: series %s has two samples at time %d ms", name, id, s.Points[j].T)
			}
		}
		set.Series = append(set.Series, s)
	}
	set.Sort()
	return set, nil
}

// series builds a series without points from a result's labels.
func series(file string, metric map[string]string) telemetry.Series {
	s := telemetry.Series{Name: metric["__name__"], Origin: telemetry.Origin{File: file}}
	for k, v := range metric {
		if k != "__name__" {
			s.Labels = append(s.Labels, telemetry.Label{Name: k, Value: v})
		}
	}
	slices.SortFunc(s.Labels, func(a, b telemetry.Label) int { return strings.Compare(a.Name, b.Name) })
	return s
}

func hasData(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && string(raw) != "null" && string(raw) != "[]"
}

// ReadFile reads and parses a saved answer at path ("-" for standard
// input), refusing one larger than DefaultMaxBytes.
func ReadFile(path string) (telemetry.Set, error) {
	data, err := input.ReadFile(path, DefaultMaxBytes)
	if err != nil {
		return telemetry.Set{}, fmt.Errorf("promapi: %w", err)
	}
	name := path
	if path == input.Stdin {
		name = input.StdinName
	}
	return ParseQueryRange(name, data)
}
