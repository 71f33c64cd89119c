package openmetrics

import (
	"fmt"

	"github.com/ressim/ressim/sim/topology"
)

// exported returns the exported columns of res's series, in registration
// order, each with its mapping and entity labels. A column whose metric
// has no mapping and is not in NotExported is an error: the catalogue has
// fallen behind topology.SeriesKeys.
func exported(res *topology.Result) ([]column, error) {
	if res.Series == nil || res.Series.Len() == 0 {
		return nil, fmt.Errorf("openmetrics: run %s has no time series", res.Name)
	}
	owners := entityOwners(res)
	byKey := make(map[topology.SeriesKey]Mapping) // lookup only
	for _, m := range Mappings() {
		byKey[m.Key] = m
	}
	skip := NotExported()
	var out []column
	for _, c := range res.Series.Columns() {
		e, ok := owners[c.Entity()]
		if !ok {
			return nil, fmt.Errorf("openmetrics: column %s/%s: unknown entity", c.Entity(), c.Metric())
		}
		k := topology.SeriesKey{Name: c.Metric(), Unit: c.Unit(), Owner: e.owner}
		if _, ok := skip[k]; ok {
			continue
		}
		m, ok := byKey[k]
		if !ok {
			return nil, fmt.Errorf("openmetrics: column %s/%s (%s): no mapping in the catalogue", c.Entity(), c.Metric(), e.owner)
		}
		ls := append(append([][2]string(nil), e.labels...), m.Fixed...)
		if m.Level {
			ls = append(ls, [2]string{"level", e.level})
		}
		out = append(out, column{col: c, m: m, labels: ls})
	}
	return out, nil
}

// entity is what a time-series entity is and the labels it gives.
type entity struct {
	owner  topology.SeriesOwner
	labels [][2]string
	level  string // a call site's fallback level
}

// entityOwners maps every entity name of res to its owner and labels.
func entityOwners(res *topology.Result) map[string]entity {
	m := map[string]entity{topology.TotalEntity: {owner: topology.OwnerTotal}}
	for _, c := range res.Clients {
		m[c.Name] = entity{owner: topology.OwnerClient, labels: [][2]string{{lClient, c.Name}}}
	}
	for _, s := range res.Services {
		m[s.Name] = entity{owner: topology.OwnerService, labels: [][2]string{{lService, s.Name}}}
	}
	for _, c := range res.Calls {
		m[c.Caller+"->"+c.Callee+"/"+c.Operation] = entity{owner: topology.OwnerSite,
			labels: [][2]string{{lCaller, c.Caller}, {lService, c.Callee}, {lOperation, c.Operation}}, level: c.FallbackLevel}
	}
	return m
}
