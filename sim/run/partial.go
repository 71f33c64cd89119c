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

	"github.com/ressim/ressim/internal/input"
	"github.com/ressim/ressim/sim/metrics"
)

// PartialFormat names the partial-result format; a reader refuses others.
const PartialFormat = "ressim-partial/1"

// ErrPartial marks partial results that cannot be merged: corrupt,
// of another experiment, seed or version, or missing or duplicated units.
var ErrPartial = errors.New("partial results refused")

// errUnreadable marks a partial file that could not be opened: missing,
// a directory, or not a regular file (a FIFO, a device, a socket), which
// is not the same as corrupt.
var errUnreadable = errors.New("cannot read")

// maxPartialLine bounds one line of a partial file, so that a corrupt or
// hostile file cannot make a reader hold more: the header carries the
// experiment file (at most 1 MiB, 1.4 MiB in base64) and a comparison's
// unit its three overlay series (about 32 bytes per interval in base64;
// 64 MiB holds 2 million intervals, twice topology.MaxIntervals).
const maxPartialLine = 64 << 20

// PartialHeader is the first line of a partial file: what the shard ran.
// A partial file is JSON Lines: this header, then one line per finished
// unit (partialUnit), appended as units finish, so that a killed shard
// keeps what it wrote and a re-run resumes after it.
type PartialHeader struct {
	Format       string `json:"format"`
	Kind         string `json:"kind"` // "sweep" or "compare"
	Experiment   string `json:"experiment"`
	FileName     string `json:"file"`
	FileSHA256   string `json:"file_sha256"`
	Version      string `json:"ressim_version"`
	Seed         uint64 `json:"seed"`
	Replications int    `json:"replications"`
	// Series is a comparison's timeseries.csv mode (first or none).
	Series string `json:"series,omitempty"`
	Shard  int    `json:"shard"`
	Shards int    `json:"shards"`
	// Units are the ids of the work units the shard holds: unit u is
	// replication u / k of cell (or variant) u % k, k cells in sweep.json
	// order or k variants in compare.json order.
	Units []int `json:"units"`
	// File is the experiment file itself, so that a merge needs nothing
	// else (bounded by the experiment's 1 MiB limit).
	File []byte `json:"file_bytes"`
}

// partialUnit is one finished unit: its record as JSON and that JSON's
// SHA-256, checked on reading (a torn or edited line is refused).
type partialUnit struct {
	Unit   int             `json:"unit"`
	Data   json.RawMessage `json:"data"`
	SHA256 string          `json:"sha256"`
}

// unitData is what a partial file keeps of one unit: its record, and
// for a comparison the run's answered latencies (all clients) and its
// overlay series, which the comparison's merged histogram and timeline
// figure need of every replication.
type unitData struct {
	Rec     RunRecord
	Latency *metrics.Histogram
	Overlay [numOverlays][]float64
}

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

func toWire(d unitData) wireRecord {
	w := recordWire(d.Rec)
	if d.Latency != nil {
		snap := d.Latency.Snapshot()
		w.Latency = &snap
		for _, col := range d.Overlay {
			w.Overlay = append(w.Overlay, packFloats(col))
		}
	}
	return w
}

func (w wireRecord) unit() (unitData, error) {
	r, err := w.record()
	d := unitData{Rec: r}
	if err != nil || w.Latency == nil {
		return d, err
	}
	if d.Latency, err = metrics.FromSnapshot(*w.Latency); err != nil {
		return d, err
	}
	if len(w.Overlay) != numOverlays {
		return d, fmt.Errorf("overlay has %d columns, want %d", len(w.Overlay), numOverlays)
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

// unitLine encodes unit u's record as one line of a partial file.
func unitLine(u int, d unitData) ([]byte, error) {
	data, err := json.Marshal(toWire(d))
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	b, err := json.Marshal(partialUnit{Unit: u, Data: data, SHA256: hex.EncodeToString(sum[:])})
	return append(b, '\n'), err
}

// parseUnitLine decodes and verifies one unit line.
func parseUnitLine(line []byte) (int, unitData, error) {
	var pu partialUnit
	if err := strictJSON(line, &pu); err != nil {
		return 0, unitData{}, err
	}
	sum := sha256.Sum256(pu.Data)
	if hex.EncodeToString(sum[:]) != pu.SHA256 {
		return 0, unitData{}, fmt.Errorf("unit %d: checksum mismatch", pu.Unit)
	}
	var w wireRecord
	if err := strictJSON(pu.Data, &w); err != nil {
		return 0, unitData{}, fmt.Errorf("unit %d: %w", pu.Unit, err)
	}
	d, err := w.unit()
	if err != nil {
		return 0, unitData{}, fmt.Errorf("unit %d: %w", pu.Unit, err)
	}
	return pu.Unit, d, nil
}

func strictJSON(b []byte, v any) error {
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

// partialFile is a partial file as read: its header, its units' records
// by unit id, and whether its last line was torn (a killed writer).
type partialFile struct {
	Header  PartialHeader
	Records map[int]unitData
	Order   []int // unit ids in file order
	Torn    bool
}

// readPartial reads a partial file whole. A last line without its
// newline is a write the shard did not finish: tolerated (Torn) so that a
// resume can redo it; any other bad line is corruption.
func readPartial(path string) (*partialFile, error) {
	return readPartialAt(path, nil)
}

// readPartialAt is readPartial that also passes each unit line, with its
// number and text, to note (if not nil), as scanPartialAt does.
func readPartialAt(path string, note func(n int, line []byte, u int)) (*partialFile, error) {
	p := &partialFile{Records: map[int]unitData{}}
	h, torn, err := scanPartialAt(path, func(n int, line []byte, u int, d unitData) error {
		if _, dup := p.Records[u]; dup {
			return fmt.Errorf("unit %d appears twice", u)
		}
		p.Records[u] = d
		p.Order = append(p.Order, u)
		if note != nil {
			note(n, line, u)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	p.Header, p.Torn = h, torn
	return p, nil
}

// scanPartial reads a partial file's header and passes each unit line,
// verified, to unit in file order (holding one line at a time); a nil
// unit stops after the header. It reports whether the last line was torn
// (without its newline, and then not passed on). An error of unit is
// returned with the file and line.
func scanPartial(path string, unit func(u int, d unitData) error) (PartialHeader, bool, error) {
	if unit == nil {
		return scanPartialAt(path, nil)
	}
	return scanPartialAt(path, func(_ int, _ []byte, u int, d unitData) error { return unit(u, d) })
}

// scanPartialAt is scanPartial whose unit is also given each unit line's
// number (the header is line 1) and text without its newline, valid only
// during the call: what merge --verify compares a re-run with.
func scanPartialAt(path string, unit func(n int, line []byte, u int, d unitData) error) (PartialHeader, bool, error) {
	var h PartialHeader
	// A FIFO opened with os.Open waits in the kernel for a writer, for
	// ever if none comes; a device may never end. OpenRegular opens
	// without waiting and refuses both, and directories.
	f, err := input.OpenRegular(path)
	if err != nil {
		return h, false, fmt.Errorf("%w: %w", errUnreadable, err)
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	for n := 1; n == 1 || unit != nil; n++ {
		line, err := readLine(br)
		if err == io.EOF {
			break
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			if n == 1 {
				break
			}
			return h, true, nil
		}
		if err == nil && n == 1 {
			err = readHeaderLine(line, &h)
		} else if err == nil {
			err = scanUnitLine(n, line, unit)
		}
		if err != nil {
			return h, false, fmt.Errorf("%s:%d: %w", path, n, err)
		}
	}
	if h.Format == "" {
		return h, false, fmt.Errorf("%s: no header: not a partial result (or cut before its first line ended)", path)
	}
	return h, false, nil
}

func readHeaderLine(line []byte, h *PartialHeader) error {
	if err := strictJSON(line, h); err != nil {
		return fmt.Errorf("header: %w", err)
	}
	if h.Format != PartialFormat {
		return fmt.Errorf("format %q, want %q", h.Format, PartialFormat)
	}
	return nil
}

func scanUnitLine(n int, line []byte, unit func(n int, line []byte, u int, d unitData) error) error {
	u, d, err := parseUnitLine(line)
	if err != nil {
		return err
	}
	return unit(n, line, u, d)
}

// readLine reads one '\n'-terminated line, without it; io.EOF at the end,
// io.ErrUnexpectedEOF for a last line without its newline.
func readLine(br *bufio.Reader) ([]byte, error) {
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
