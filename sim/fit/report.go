package fit

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/ressim/ressim/internal/termsafe"
	"github.com/ressim/ressim/sim/dist"
	"github.com/ressim/ressim/sim/report"
)

// WriteText writes the fit's report as a table a person reads: the
// window, per service the rates, pool, utilisation, own work and its fit
// quality, the clients, then every note. Names are printed with their
// control characters escaped.
func WriteText(w io.Writer, m *Model) error {
	fmt.Fprintf(w, "fit of %s (%s preset)\n", termsafe.Line(strings.Join(m.Sources, ", ")), termsafe.Line(m.Preset))
	fmt.Fprintf(w, "window %s: %s\n\n", m.Window, termsafe.Line(m.Window.Rule))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "service\tarrivals/s\tbusy\tworkers\tutil\town work\tshape\tp\tCDF gap\tcalls")
	for i := range m.Services {
		s := &m.Services[i]
		shape, p, gap := "exponential (no histogram)", "-", "-"
		if s.Shape != nil {
			shape = shapeText(s.WorkParams())
			if len(s.Fits) > 1 {
				shape += fmt.Sprintf(" (%s %+.0f AIC)", s.Fits[1].Params.Kind, s.Fits[1].AIC-s.Shape.AIC)
			}
			p, gap = fmt.Sprintf("%.3g", s.Shape.PValue), fmt.Sprintf("%.3f", s.Shape.MaxGap)
		}
		var calls []string
		for _, c := range s.Calls {
			calls = append(calls, fmt.Sprintf("%s x%.2f", termsafe.Line(c.Callee), c.FanOut.V))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", termsafe.Line(s.Name), val(s.Arrivals, "%.1f"), val(s.Busy, "%.2f"),
			val(s.Workers, "%.0f"), pct(s.Utilization), secs(s.Work.V), shape, p, gap, strings.Join(calls, ", "))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	for _, c := range m.Clients {
		fmt.Fprintf(w, "client %s -> %s: %s req/s\n", termsafe.Line(c.Name), termsafe.Line(c.Target), val(c.Rate, "%.2f"))
	}
	for _, n := range m.Notes {
		fmt.Fprintf(w, "note: %s\n", termsafe.Line(n))
	}
	for i := range m.Services {
		for _, n := range m.Services[i].Notes {
			fmt.Fprintf(w, "note: %s: %s\n", termsafe.Line(m.Services[i].Name), termsafe.Line(n))
		}
	}
	_, err := fmt.Fprintln(w, "Values marked * are placeholders: the data did not give them.")
	return err
}

func val(v Value, format string) string {
	s := fmt.Sprintf(format, v.V)
	if v.Placeholder {
		s += "*"
	}
	return s
}

func pct(x float64) string {
	if x == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*x)
}

// shapeText describes a distribution in a few words.
func shapeText(p dist.Params) string {
	switch p.Kind.String() {
	case "lognormal":
		return fmt.Sprintf("lognormal sigma %.2f", p.Sigma)
	case "erlang":
		return fmt.Sprintf("erlang k %d", p.K)
	case "hyperexponential":
		return fmt.Sprintf("hyperexp scv %.2f", p.SCV)
	}
	return p.Kind.String()
}

// jsonReport is fit.json's layout.
type jsonReport struct {
	Preset   string        `json:"preset"`
	Sources  []string      `json:"sources"`
	Window   jsonWindow    `json:"window"`
	Clients  []jsonClient  `json:"clients"`
	Services []jsonService `json:"services"`
	Notes    []string      `json:"notes"`
}

type jsonWindow struct {
	Start   string  `json:"start"`
	End     string  `json:"end"`
	Seconds float64 `json:"seconds"`
	Rule    string  `json:"rule"`
}

type jsonValue struct {
	Value       float64 `json:"value"`
	From        string  `json:"from"`
	Placeholder bool    `json:"placeholder,omitempty"`
}

type jsonClient struct {
	Name      string    `json:"name"`
	Target    string    `json:"target"`
	Operation string    `json:"operation,omitempty"`
	Rate      jsonValue `json:"rate_per_s"`
}

type jsonFit struct {
	Dist     string  `json:"dist"`
	MeanS    float64 `json:"mean_s"`
	Sigma    float64 `json:"sigma,omitempty"`
	K        int     `json:"k,omitempty"`
	SCV      float64 `json:"scv,omitempty"`
	LogLik   float64 `json:"log_likelihood"`
	Params   int     `json:"free_parameters"`
	AIC      float64 `json:"aic"`
	ChiSq    float64 `json:"chi_square"`
	DoF      int     `json:"dof"`
	PValue   float64 `json:"p_value"`
	MaxGap   float64 `json:"max_cdf_gap"`
	Selected bool    `json:"selected,omitempty"`
}

type jsonBucket struct {
	LE       string  `json:"le"`
	Observed float64 `json:"observed"`
	Fitted   float64 `json:"fitted"`
}

type jsonCall struct {
	Callee    string    `json:"callee"`
	Operation string    `json:"operation,omitempty"`
	FanOut    jsonValue `json:"fan_out"`
	Parallel  bool      `json:"parallel,omitempty"`
	LatencyS  float64   `json:"latency_mean_s"`
}

type jsonService struct {
	Name        string       `json:"name"`
	Arrivals    jsonValue    `json:"arrivals_per_s"`
	Throughput  jsonValue    `json:"throughput_per_s"`
	Busy        jsonValue    `json:"busy_workers"`
	Workers     jsonValue    `json:"workers"`
	Utilization float64      `json:"utilization"`
	Held        jsonValue    `json:"held_s"`
	Work        jsonValue    `json:"work_mean_s"`
	ShapeFrom   string       `json:"shape_from,omitempty"`
	Fits        []jsonFit    `json:"fits"`
	Buckets     []jsonBucket `json:"buckets"`
	ErrorRate   jsonValue    `json:"error_rate"`
	Calls       []jsonCall   `json:"calls"`
	Notes       []string     `json:"notes"`
}

func jv(v Value) jsonValue {
	return jsonValue{Value: finite(v.V), From: v.From, Placeholder: v.Placeholder}
}

func finite(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return x
}

// WriteJSON writes the fit as fit.json: everything the text report says,
// every family tried with its likelihood, AIC and goodness of fit, and
// the observed and fitted bucket counts.
func WriteJSON(w io.Writer, m *Model) error {
	f := func(ms int64) string { return time.UnixMilli(ms).UTC().Format(time.RFC3339Nano) }
	r := jsonReport{Preset: m.Preset, Sources: append([]string{}, m.Sources...),
		Window:  jsonWindow{Start: f(m.Window.Start), End: f(m.Window.End), Seconds: m.Window.Seconds(), Rule: m.Window.Rule},
		Clients: []jsonClient{}, Services: []jsonService{}, Notes: append([]string{}, m.Notes...)}
	for _, c := range m.Clients {
		r.Clients = append(r.Clients, jsonClient{Name: c.Name, Target: c.Target, Operation: c.Operation, Rate: jv(c.Rate)})
	}
	for i := range m.Services {
		s := &m.Services[i]
		js := jsonService{Name: s.Name, Arrivals: jv(s.Arrivals), Throughput: jv(s.Throughput), Busy: jv(s.Busy), Workers: jv(s.Workers),
			Utilization: finite(s.Utilization), Held: jv(s.Held), Work: jv(s.Work), ShapeFrom: s.ShapeFrom, ErrorRate: jv(s.ErrorRate),
			Fits: []jsonFit{}, Buckets: []jsonBucket{}, Calls: []jsonCall{}, Notes: append([]string{}, s.Notes...)}
		for k, ft := range s.Fits {
			p := ft.Params
			js.Fits = append(js.Fits, jsonFit{Dist: p.Kind.String(), MeanS: p.Mean.Seconds(), Sigma: p.Sigma, K: p.K, SCV: p.SCV,
				LogLik: finite(ft.LogLik), Params: ft.K, AIC: finite(ft.AIC), ChiSq: finite(ft.ChiSq), DoF: ft.DoF, PValue: finite(ft.PValue),
				MaxGap: finite(ft.MaxGap), Selected: k == 0})
		}
		for k, ub := range s.Bounds {
			b := jsonBucket{LE: le(ub), Observed: s.Observed[k]}
			if k < len(s.Expected) {
				b.Fitted = finite(s.Expected[k])
			}
			js.Buckets = append(js.Buckets, b)
		}
		for _, c := range s.Calls {
			js.Calls = append(js.Calls, jsonCall{Callee: c.Callee, Operation: c.Operation, FanOut: jv(c.FanOut), Parallel: c.Parallel, LatencyS: finite(c.Latency)})
		}
		r.Services = append(r.Services, js)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// le formats a bucket bound as Prometheus writes it.
func le(x float64) string {
	if math.IsInf(x, 1) {
		return "+Inf"
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// Figure returns a service's fit figure: the observed share of requests
// per latency bucket against the fitted model's, from the same buckets;
// ok is false when the service had no histogram or no fit.
func Figure(s *Service) (report.BarChart, bool) {
	if s.Shape == nil || len(s.Observed) == 0 || len(s.Expected) != len(s.Observed) {
		return report.BarChart{}, false
	}
	n, e := 0.0, 0.0
	for i := range s.Observed {
		n += s.Observed[i]
		e += s.Expected[i]
	}
	if n == 0 || e == 0 {
		return report.BarChart{}, false
	}
	// Shares in percent to one decimal, so that every bar's label is
	// short; the buckets before the first and after the last that hold
	// 0.05 % of either are left out (a histogram's empty tail buckets,
	// up to 60 s, would crowd the axis).
	var obs, fit []float64
	var groups []string
	lo := 0.0
	first, last := -1, -1
	for i := range s.Bounds {
		if 100*s.Observed[i]/n >= 0.05 || 100*s.Expected[i]/e >= 0.05 {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	for i, ub := range s.Bounds {
		if i >= first && i <= last {
			obs = append(obs, math.Round(1000*s.Observed[i]/n)/10)
			fit = append(fit, math.Round(1000*s.Expected[i]/e)/10)
			groups = append(groups, bucketName(lo, ub))
		}
		lo = ub
	}
	verdict := "fits"
	if s.Shape.PValue < 0.01 && s.Shape.MaxGap > 0.05 {
		verdict = "does not fit"
	}
	what, sub := "the latency", "observed latency per bucket against the fitted model's, queue wait and calls included"
	if s.OwnTimes {
		what, sub = "the own times", "the spans' own times (span less its calls) per bucket against the fitted distribution's"
	}
	return report.BarChart{
		Title:    fmt.Sprintf("%s: %s own work %s %s (largest CDF gap %.1f %%)", termsafe.Line(s.Name), shapeText(s.WorkParams()), verdict, what, 100*s.Shape.MaxGap),
		Subtitle: sub,
		YLabel:   "share of requests (%)", XLabel: "latency bucket",
		Groups: groups,
		Series: []report.BarSeries{{Label: "observed", Values: obs}, {Label: "fitted model", Values: fit}},
	}, true
}

// bucketName names the bucket (lo, hi] in ms or s.
func bucketName(lo, hi float64) string {
	// Two significant digits, never an exponent: 0.47ms, 100ms, 2.5s.
	sig2 := func(x float64) string {
		if x <= 0 {
			return "0"
		}
		d := math.Pow(10, math.Floor(math.Log10(x))-1)
		return strconv.FormatFloat(math.Round(x/d)*d, 'f', max(0, int(-math.Floor(math.Log10(d)))), 64)
	}
	f := func(x float64) string {
		if x < 1 {
			return sig2(x*1e3) + "ms"
		}
		return sig2(x) + "s"
	}
	if math.IsInf(hi, 1) {
		return ">" + f(lo)
	}
	return "≤" + f(hi)
}
