package promapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/ressim/ressim/internal/input"
	"github.com/ressim/ressim/sim/telemetry"
)

// MaxResolution is the most points per series a query_range may ask
// for: Prometheus refuses more.
const MaxResolution = 11000

// Client asks a Prometheus server's HTTP API.
type Client struct {
	// BaseURL is the server's address, with any path prefix
	// ("http://localhost:9090", "https://example.com/prometheus").
	BaseURL string
	// HTTP sends the requests; nil means http.DefaultClient.
	HTTP *http.Client
	// MaxBytes bounds an answer's body (0: DefaultMaxBytes).
	MaxBytes int64
}

// QueryRange evaluates query from start to end every step and returns
// the matrix answer as a set whose origins name the request's URL. The
// step must be positive, end not before start, and the range at most
// MaxResolution steps; these are checked before anything is sent. A
// refusal by Prometheus is an *APIError (wrapped with the HTTP status).
func (c *Client) QueryRange(ctx context.Context, query string, start, end time.Time, step time.Duration) (telemetry.Set, error) {
	fail := func(err error) (telemetry.Set, error) {
		return telemetry.Set{}, fmt.Errorf("promapi: query_range %q: %w", query, err)
	}
	switch {
	case step <= 0:
		return fail(fmt.Errorf("step %v is not positive", step))
	case end.Before(start):
		return fail(fmt.Errorf("end %v is before start %v", end, start))
	case end.Sub(start)/step > MaxResolution:
		return fail(fmt.Errorf("%v every %v is more than %d points per series (Prometheus' limit): raise the step", end.Sub(start), step, MaxResolution))
	}
	u, err := url.Parse(c.BaseURL)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return fail(fmt.Errorf("invalid base URL %q", c.BaseURL))
	}
	u = u.JoinPath("api", "v1", "query_range")
	u.RawQuery = url.Values{
		"query": {query},
		"start": {start.UTC().Format(time.RFC3339Nano)},
		"end":   {end.UTC().Format(time.RFC3339Nano)},
		"step":  {strconv.FormatFloat(step.Seconds(), 'f', -1, 64)},
	}.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return fail(err)
	}
	req.Header.Set("Accept", "application/json")
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return fail(err)
	}
	defer resp.Body.Close()
	limit := c.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	name := u.String()
	body, err := input.Read("the answer", resp.Body, limit, false)
	if err != nil {
		return fail(err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fail(statusError(resp.Status, body))
	}
	set, err := ParseQueryRange(name, body)
	if err != nil {
		return fail(err)
	}
	return set, nil
}

// statusError explains a non-2xx answer: Prometheus' own error when the
// body is one, else the start of the body.
func statusError(status string, body []byte) error {
	var r response
	if json.Unmarshal(body, &r) == nil && r.Status == "error" {
		return fmt.Errorf("HTTP %s: %w", status, &APIError{Type: r.ErrorType, Msg: r.Error})
	}
	const show = 200
	if len(body) > show {
		body = body[:show]
	}
	return errors.New("HTTP " + status + ": " + strconv.Quote(string(body)))
}
