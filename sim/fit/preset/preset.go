package preset

import (
	"errors"
	"fmt"
	"strings"

	"github.com/ressim/ressim/sim/fit/observe"
	"github.com/ressim/ressim/sim/telemetry"
)

// Preset is one naming convention: how its series become Observations.
type Preset struct {
	// Name identifies the preset (ByName's argument).
	Name string
	// Doc says in a paragraph what the preset reads.
	Doc string
	// looks are the characteristic series Detect counts and Read's
	// error lists.
	looks []selector
	// read fills b from its index.
	read func(b *builder)
}

// Read turns set into Observations by the preset's convention. It
// returns an error when no series of the convention is found, or a
// histogram is malformed, or a role matches more than MaxSeriesPerRole
// series.
func (p Preset) Read(set telemetry.Set) (observe.Observations, error) {
	if p.read == nil {
		return observe.Observations{}, errors.New("preset: the zero Preset reads nothing; use All, ByName, Detect or FromMapping")
	}
	b := newBuilder(newIndex(set))
	p.read(b)
	return b.observations(p.Name, p.looks)
}

// All returns the built-in presets in a fixed order: ressim, istio,
// otel-http, otel-rpc, grpc-prometheus, envoy, linkerd. The slice is
// new on every call.
func All() []Preset {
	return []Preset{ressimPreset(), istioPreset(), otelHTTPPreset(), otelRPCPreset(),
		grpcPreset(), Envoy(""), Linkerd("")}
}

// ByName returns the built-in preset called name. "envoy:LOCAL" and
// "linkerd:LOCAL" name the local service the proxy's stats belong to.
func ByName(name string) (Preset, bool) {
	if local, ok := strings.CutPrefix(name, "envoy:"); ok && local != "" {
		return Envoy(local), true
	}
	if local, ok := strings.CutPrefix(name, "linkerd:"); ok && local != "" {
		return Linkerd(local), true
	}
	for _, p := range All() {
		if p.Name == name {
			return p, true
		}
	}
	return Preset{}, false
}

// Detect returns the built-in preset most of whose characteristic series
// are present in set; a tie goes to the earlier in All's order. It is an
// error when none is present: the error lists what was looked for.
func Detect(set telemetry.Set) (Preset, error) {
	x := newIndex(set)
	best, bestN := -1, 0
	all := All()
	for i, p := range all {
		n := 0
		for _, sel := range p.looks {
			if x.has(sel) {
				n++
			}
		}
		if n > bestN {
			best, bestN = i, n
		}
	}
	if best >= 0 {
		return all[best], nil
	}
	var b strings.Builder
	for _, p := range all {
		fmt.Fprintf(&b, "; %s: %s", p.Name, listSelectors(p.looks))
	}
	return Preset{}, fmt.Errorf("preset: no known naming convention among %d series (looked for%s)", len(set.Series), strings.TrimPrefix(b.String(), ";"))
}
