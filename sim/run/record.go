package run

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/ressim/ressim/sim/topology"
)

// RunRecord is what a comparison or a sweep keeps of one replication, so
// that it can be listed and re-run: its index and seed, its verdict on
// each fault, its headline metrics and a digest of the summary.json that
// ressim run writes for it (ressim run FILE --variant V --replication K).
type RunRecord struct {
	// Replication is the replication's index; Seed its seed
	// (ReplicationSeed of the comparison's seed and the index).
	Replication int
	Seed        uint64
	// Faults are the run's fault verdicts, in the order of summary.json.
	Faults []FaultVerdict
	// Headline are the run's headline metrics.
	Headline Headline
	// SummarySHA256 is the hex SHA-256 of the run's summary.json bytes.
	SummarySHA256 string
}

// FaultVerdict is one fault's recovery verdict in a run, as summary.json
// states it: the verdict string and the recovery time in seconds (nil
// where the verdict gives none).
type FaultVerdict struct {
	Label     string
	Verdict   string
	RecoveryS *float64
}

// NewRunRecord records replication r, whose result is res.
// The summary is built once and encoded straight into the hash, with the
// encoder SummaryJSON uses (the same bytes), so that a run's record does
// not build its summary twice nor hold summary.json's bytes.
func NewRunRecord(r int, res *topology.Result) (RunRecord, error) {
	sum := NewSummary(res)
	h := sha256.New()
	enc := json.NewEncoder(h)
	enc.SetIndent("", "  ")
	if err := enc.Encode(sum); err != nil {
		return RunRecord{}, fmt.Errorf("replication %d: summary: %w", r, err)
	}
	rec := RunRecord{Replication: r, Seed: res.Seed, Headline: NewHeadline(res), SummarySHA256: hex.EncodeToString(h.Sum(nil))}
	for _, f := range sum.Faults {
		rec.Faults = append(rec.Faults, FaultVerdict{Label: f.Label, Verdict: f.Verdict, RecoveryS: f.Recovery})
	}
	return rec, nil
}

// RunRecordJSON is a RunRecord as compare.json and sweep.json list it.
type RunRecordJSON struct {
	Replication int    `json:"replication"`
	Seed        uint64 `json:"seed"`
	// Headline holds each headline metric by name (null where undefined
	// for the run, e.g. the recovery time of a run that stayed locked in).
	Headline map[string]*float64 `json:"headline"`
	LockedIn bool                `json:"locked_in"`
	Faults   []faultVerdictJSON  `json:"faults"`
	Summary  string              `json:"summary_sha256"`
}

type faultVerdictJSON struct {
	Label     string   `json:"label"`
	Verdict   string   `json:"verdict"`
	RecoveryS *float64 `json:"recovery_time_s"`
}

// JSON is r as compare.json and sweep.json list it.
func (r RunRecord) JSON() RunRecordJSON {
	out := RunRecordJSON{Replication: r.Replication, Seed: r.Seed, Headline: map[string]*float64{},
		LockedIn: r.Headline.LockedIn, Faults: []faultVerdictJSON{}, Summary: r.SummarySHA256}
	for _, m := range Metrics {
		out.Headline[m.Name] = JSONNum(m.get(r.Headline))
	}
	for _, f := range r.Faults {
		out.Faults = append(out.Faults, faultVerdictJSON(f))
	}
	return out
}

// RecordsJSON is each of rs as JSON (RunRecord.JSON), in order.
func RecordsJSON(rs []RunRecord) []RunRecordJSON {
	out := make([]RunRecordJSON, len(rs))
	for i, r := range rs {
		out[i] = r.JSON()
	}
	return out
}
