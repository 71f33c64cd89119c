package alerts

import (
	"slices"
	"strings"
	"time"
)

// Episode is one span in which an alert (one label set) was active:
// pending from Pending, firing from Firing (if it fired), inactive again
// at End. Times are simulated time since the start of the run.
type Episode struct {
	// Alert names the alert: alertname{label="value",...}.
	Alert   string
	Pending time.Duration
	// Fired says whether the episode reached firing, at Firing.
	Fired  bool
	Firing time.Duration
	// Resolved says whether the alert went inactive before the run
	// ended, at End.
	Resolved bool
	End      time.Duration
}

// episodes turns the ALERTS samples seen at the evaluation times steps
// into episodes, by alert in order of first activity.
func episodes(acts []active, steps []time.Duration) []Episode {
	byAlert := make(map[string]map[time.Duration]string) // lookup only
	var order []string
	for _, a := range acts {
		id := alertID(a.labels)
		m, ok := byAlert[id]
		if !ok {
			m = make(map[time.Duration]string)
			byAlert[id] = m
			order = append(order, id)
		}
		if m[a.at] != "firing" {
			m[a.at] = a.state
		}
	}
	var out []Episode
	for _, id := range order {
		out = append(out, alertEpisodes(id, byAlert[id], steps)...)
	}
	slices.SortStableFunc(out, func(a, b Episode) int { return int(a.Pending - b.Pending) })
	return out
}

func alertEpisodes(id string, state map[time.Duration]string, steps []time.Duration) []Episode {
	var out []Episode
	var cur *Episode
	for _, t := range steps {
		st := state[t]
		switch {
		case st == "" && cur != nil:
			cur.Resolved, cur.End = true, t
			out = append(out, *cur)
			cur = nil
		case st != "" && cur == nil:
			cur = &Episode{Alert: id, Pending: t}
		}
		if st == "firing" && cur != nil && !cur.Fired {
			cur.Fired, cur.Firing = true, t
		}
	}
	if cur != nil {
		out = append(out, *cur)
	}
	return out
}

// alertID renders alertname{labels} with the other labels in the order
// promtool printed them (sorted by name).
func alertID(ls [][2]string) string {
	name := ""
	var rest []string
	for _, l := range ls {
		if l[0] == "alertname" {
			name = l[1]
			continue
		}
		rest = append(rest, l[0]+"="+quoteLabel(l[1]))
	}
	if len(rest) == 0 {
		return name
	}
	return name + "{" + strings.Join(rest, ",") + "}"
}

func quoteLabel(v string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(v) + `"`
}
