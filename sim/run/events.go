package run

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/ressim/ressim/sim/topology"
)

// EventsFile holds a run's state changes (topology.EventLog), one a row.
const EventsFile = "events.csv"

// eventsHeader is the header row of events.csv.
var eventsHeader = []string{"t_s", "kind", "subject", "from", "to", "detail"}

// WriteEventsCSV writes a run's event log as CSV (RFC 4180, "\n" line
// endings): the header t_s,kind,subject,from,to,detail, then one row per
// event in time order. t_s is the instant in exact decimal seconds
// (35398516194 ns is "35.398516194"), so the same run gives the same
// bytes anywhere. A log that dropped events (its cap reached) ends with
// a row of kind "dropped" whose detail is the count.
func WriteEventsCSV(w io.Writer, log topology.EventLog) error {
	bw := bufio.NewWriter(w)
	cw := csv.NewWriter(bw)
	rows := [][]string{eventsHeader}
	for _, e := range log.Events {
		rows = append(rows, []string{exactSeconds(e.At), string(e.Kind), e.Subject, e.From, e.To, e.Detail})
	}
	if log.Dropped > 0 {
		last := time.Duration(0)
		if n := len(log.Events); n > 0 {
			last = log.Events[n-1].At
		}
		rows = append(rows, []string{exactSeconds(last), "dropped", "", "", "",
			fmt.Sprintf("%d more events after the cap of %d", log.Dropped, log.Cap)})
	}
	if err := cw.WriteAll(rows); err != nil {
		return fmt.Errorf("events.csv: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("events.csv: %w", err)
	}
	return nil
}

// exactSeconds formats d as exact decimal seconds without trailing zeros:
// 1.5s is "1.5", 0 is "0", -2ms is "-0.002".
func exactSeconds(d time.Duration) string {
	sign := ""
	ns := int64(d)
	if ns < 0 {
		sign, ns = "-", -ns
	}
	s := strconv.FormatInt(ns/1e9, 10)
	if frac := ns % 1e9; frac != 0 {
		s += "." + strings.TrimRight(fmt.Sprintf("%09d", frac), "0")
	}
	return sign + s
}

// EventLogSummary is summary.json's account of the event log: how many
// state changes of each kind were logged (events.csv lists them), how
// many were dropped past the cap.
type EventLogSummary struct {
	Logged  int            `json:"logged"`
	Dropped uint64         `json:"dropped"`
	Cap     int            `json:"cap"`
	ByKind  map[string]int `json:"by_kind"`
}

func newEventLogSummary(log topology.EventLog) EventLogSummary {
	s := EventLogSummary{Logged: len(log.Events), Dropped: log.Dropped, Cap: log.Cap, ByKind: map[string]int{}}
	for _, e := range log.Events {
		s.ByKind[string(e.Kind)]++
	}
	return s
}
