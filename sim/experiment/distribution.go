package experiment

import (
	"strings"

	"github.com/ressim/ressim/sim/dist"
)

// dist reads a distribution table such as
// { dist = "erlang", mean = "10ms", k = 4 }.
func (r *reader) dist(t *table) (dist.Dist, bool) {
	name, ok := t.str("dist", true)
	if !ok {
		t.done("dist", "mean", "k", "scv", "sigma", "min", "max", "sd")
		return dist.Dist{}, false
	}
	kind, ok := dist.ParseKind(name)
	if !ok {
		r.errorf(t.key("dist"), "unknown distribution %q; expected one of: %s", name, strings.Join(dist.KindNames(), ", "))
		return dist.Dist{}, false
	}
	p := dist.Params{Kind: kind}
	good := true
	var keys []string
	switch kind {
	case dist.Uniform:
		keys = []string{"dist", "min", "max"}
		var ok1, ok2 bool
		p.Min, ok1 = t.duration("min", true, 0)
		p.Max, ok2 = t.duration("max", true, 0)
		good = ok1 && ok2
		if good && p.Max < p.Min {
			r.errorf(t.key("max"), "must be >= min (%v), got %v", p.Min, p.Max)
			good = false
		}
	default:
		keys = []string{"dist", "mean"}
		lo := dist.Params{}.Mean + 1 // > 0
		if kind == dist.Constant {
			lo = 0
		}
		p.Mean, good = t.duration("mean", true, lo)
		shape, sok := distShape(t, &p)
		keys = append(keys, shape...)
		good = good && sok
	}
	t.done(keys...)
	if !good {
		return dist.Dist{}, false
	}
	d, err := dist.New(p)
	if err != nil {
		r.errorf(t.path, "%v", err)
		return dist.Dist{}, false
	}
	return d, true
}

// distShape reads the shape keys of p.Kind (k, scv, sigma or sd) and
// returns the keys it accepts.
func distShape(t *table, p *dist.Params) (keys []string, good bool) {
	good = true
	var ok bool
	switch p.Kind {
	case dist.Erlang:
		keys = append(keys, "k")
		k, kok := t.intIn("k", true, erlangKRange)
		p.K = int(k)
		good = kok
	case dist.Hyperexponential:
		keys = append(keys, "scv")
		p.SCV, ok = t.ranged("scv", true, hyperSCVRange)
		good = ok
	case dist.Lognormal:
		keys = append(keys, "sigma")
		p.Sigma, ok = t.ranged("sigma", true, lognormalSigma)
		good = ok
	case dist.Normal:
		keys = append(keys, "sd")
		p.SD, ok = t.duration("sd", true, 0)
		good = ok
	}
	return keys, good
}
