package run

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/ressim/ressim/sim/metrics"
	"github.com/ressim/ressim/sim/topology"
)

// The wire encoding of a run's record and of a unit of a sharded batch:
// the lines of the partial files (sim/run/shard) and of a sweep's cell
// spool (cellspool.go). Every float crosses it exactly.

// maxPartialLine bounds one line of a partial file, so that a corrupt or
// hostile file cannot make a reader hold more: the header carries the
// experiment file (at most 1 MiB, 1.4 MiB in base64) and a comparison's
// unit its three overlay series (about 32 bytes per interval in base64;
// 64 MiB holds 2 million intervals, twice topology.MaxIntervals).
const maxPartialLine = 64 << 20

// partialUnit is one finished unit: its record as JSON and that JSON's
// SHA-256, checked on reading (a torn or edited line is refused).
type partialUnit struct {
	Unit   int             `json:"unit"`
	Data   json.RawMessage `json:"data"`
	SHA256 string          `json:"sha256"`
}

// Unit is what a partial file keeps of one run of a sweep or a
// comparison (a unit of a Batch): its record, and for a comparison the
// run's answered latencies (all clients) and its overlay series, which
// the comparison's merged histogram and timeline figure need of every
// replication.
type Unit struct {
	Record RunRecord
	// Latency is the run's answered latencies, all clients merged; nil
	// for a sweep's unit.
	Latency *metrics.Histogram
	// Overlay is the run's overlay series (OverlayColumns); a sweep's
	// unit has none.
	Overlay Overlays
}

// ComparedUnit is what a comparison keeps of every run: its record, its
// clients' answered latencies merged, and its overlay series.
func ComparedUnit(res *topology.Result, rec RunRecord) Unit {
	d := Unit{Record: rec, Latency: &metrics.Histogram{}, Overlay: OverlayColumns(res)}
	for _, cl := range res.Clients {
		d.Latency.Merge(cl.Latency)
	}
	return d
}

// Compared reports whether u is a comparison's unit: one that carries
// the run's latencies and overlay series besides its record.
func (u Unit) Compared() bool { return u.Latency != nil }

// wireRecord is a RunRecord with every float as strconv 'g' -1 text,
// which round-trips exactly (NaN and ±Inf included, which JSON numbers
// cannot hold).
type wireRecord struct {
	Replication int               `json:"replication"`
	Seed        uint64            `json:"seed"`
	Faults      []wireFault       `json:"faults,omitempty"`
	Floats      map[string]string `json:"headline"`
	HasRecovery bool              `json:"has_recovery,omitempty"`
	LockedIn    bool              `json:"locked_in,omitempty"`
	HasFault    bool              `json:"has_fault,omitempty"`
	Summary     string            `json:"summary_sha256"`
	// Comparisons only: the run's latency histogram and its overlay
	// columns, each as base64 of little-endian float64 bits (exact).
	Latency *metrics.Snapshot `json:"latency,omitempty"`
	Overlay []string          `json:"overlay,omitempty"`
}

type wireFault struct {
	Label     string  `json:"label"`
	Verdict   string  `json:"verdict"`
	RecoveryS *string `json:"recovery_s,omitempty"`
}

// headlineFloats are the Headline's float fields (every per-run metric)
// by wire name: the contract's Def.Wire, the partial format's names
// (some older than the metrics' names, and kept: the format is stable).
func headlineFloats(h *Headline) map[string]*float64 {
	m := make(map[string]*float64, len(Metrics))
	for _, md := range Metrics {
		m[md.Key.Def().Wire] = headlineField(h, md.Key)
	}
	return m
}

func fmtExact(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func toWire(d Unit) wireRecord {
	w := recordWire(d.Record)
	if d.Latency != nil {
		snap := d.Latency.Snapshot()
		w.Latency = &snap
		for _, col := range d.Overlay {
			w.Overlay = append(w.Overlay, packFloats(col))
		}
	}
	return w
}

func (w wireRecord) unit() (Unit, error) {
	r, err := w.record()
	d := Unit{Record: r}
	if err != nil || w.Latency == nil {
		return d, err
	}
	if d.Latency, err = metrics.FromSnapshot(*w.Latency); err != nil {
		return d, err
	}
	if len(w.Overlay) != NumOverlays {
		return d, fmt.Errorf("overlay has %d columns, want %d", len(w.Overlay), NumOverlays)
	}
	for k, col := range w.Overlay {
		if d.Overlay[k], err = unpackFloats(col); err != nil {
			return d, fmt.Errorf("overlay column %d: %w", k, err)
		}
	}
	return d, nil
}

// packFloats is base64 of xs' little-endian IEEE 754 bits; nil for nil
// is "" (an absent series folds like an empty one).
func packFloats(xs []float64) string {
	b := make([]byte, 8*len(xs))
	for i, x := range xs {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
	}
	return base64.StdEncoding.EncodeToString(b)
}

func unpackFloats(s string) ([]float64, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b)%8 != 0 {
		return nil, fmt.Errorf("not base64 of float64s")
	}
	xs := make([]float64, len(b)/8)
	for i := range xs {
		xs[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return xs, nil
}

func recordWire(r RunRecord) wireRecord {
	w := wireRecord{Replication: r.Replication, Seed: r.Seed, Floats: map[string]string{}, HasRecovery: r.Headline.HasRecovery,
		LockedIn: r.Headline.LockedIn, HasFault: r.Headline.HasFault, Summary: r.SummarySHA256}
	for k, p := range headlineFloats(&r.Headline) {
		w.Floats[k] = fmtExact(*p)
	}
	for _, f := range r.Faults {
		wf := wireFault{Label: f.Label, Verdict: f.Verdict}
		if f.RecoveryS != nil {
			s := fmtExact(*f.RecoveryS)
			wf.RecoveryS = &s
		}
		w.Faults = append(w.Faults, wf)
	}
	return w
}

func (w wireRecord) record() (RunRecord, error) {
	r := RunRecord{Replication: w.Replication, Seed: w.Seed, SummarySHA256: w.Summary}
	r.Headline.HasRecovery, r.Headline.LockedIn, r.Headline.HasFault = w.HasRecovery, w.LockedIn, w.HasFault
	fs := headlineFloats(&r.Headline)
	if len(w.Floats) != len(fs) {
		return r, fmt.Errorf("headline has %d values, want %d", len(w.Floats), len(fs))
	}
	for k, p := range fs {
		v, err := strconv.ParseFloat(w.Floats[k], 64)
		if err != nil {
			return r, fmt.Errorf("headline %s: %w", k, err)
		}
		*p = v
	}
	for _, f := range w.Faults {
		fv := FaultVerdict{Label: f.Label, Verdict: f.Verdict}
		if f.RecoveryS != nil {
			v, err := strconv.ParseFloat(*f.RecoveryS, 64)
			if err != nil {
				return r, fmt.Errorf("fault %s: %w", f.Label, err)
			}
			fv.RecoveryS = &v
		}
		r.Faults = append(r.Faults, fv)
	}
	return r, nil
}

// UnitLine encodes unit u as one line of a partial file, newline
// included: its data as JSON, every float exact, and that JSON's SHA-256.
// A run gives the same line on any machine, byte for byte.
func UnitLine(u int, d Unit) ([]byte, error) {
	data, err := json.Marshal(toWire(d))
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	b, err := json.Marshal(partialUnit{Unit: u, Data: data, SHA256: hex.EncodeToString(sum[:])})
	return append(b, '\n'), err
}

// ParseUnitLine decodes one unit line (without its newline) and
// verifies its checksum, returning the unit's id and data.
func ParseUnitLine(line []byte) (int, Unit, error) {
	var pu partialUnit
	if err := DecodeStrict(line, &pu); err != nil {
		return 0, Unit{}, err
	}
	sum := sha256.Sum256(pu.Data)
	if hex.EncodeToString(sum[:]) != pu.SHA256 {
		return 0, Unit{}, fmt.Errorf("unit %d: checksum mismatch", pu.Unit)
	}
	var w wireRecord
	if err := DecodeStrict(pu.Data, &w); err != nil {
		return 0, Unit{}, fmt.Errorf("unit %d: %w", pu.Unit, err)
	}
	d, err := w.unit()
	if err != nil {
		return 0, Unit{}, fmt.Errorf("unit %d: %w", pu.Unit, err)
	}
	return pu.Unit, d, nil
}

// DecodeStrict decodes one JSON value of b into v, refusing unknown
// fields and trailing data: the partial format's lines (a unit's here,
// the header's in package shard) are read this way.
func DecodeStrict(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return err
	}
	if d.More() {
		return errors.New("trailing data")
	}
	return nil
}

// ReadLine reads one '\n'-terminated line of a partial file or a cell
// spool, without it: io.EOF at the end, io.ErrUnexpectedEOF for a last
// line without its newline, an error for a line over maxPartialLine
// bytes (64 MiB).
func ReadLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > maxPartialLine {
			return nil, fmt.Errorf("line longer than %d bytes", maxPartialLine)
		}
		switch {
		case err == nil:
			return line[:len(line)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF && len(line) == 0:
			return nil, io.EOF
		case err == io.EOF:
			return nil, io.ErrUnexpectedEOF
		default:
			return nil, err
		}
	}
}

// ExactJSON is rec as JSON with every float exact (strconv 'g' -1 text,
// NaN and ±Inf included): a sweep's cell spool holds its records so, and
// the statistics read back are those of the runs.
func ExactJSON(rec RunRecord) ([]byte, error) { return json.Marshal(recordWire(rec)) }

// ParseExactJSON decodes a record ExactJSON wrote.
func ParseExactJSON(data []byte) (RunRecord, error) {
	var w wireRecord
	if err := json.Unmarshal(data, &w); err != nil {
		return RunRecord{}, err
	}
	return w.record()
}
