package preset

import (
	"net"
	"strings"

	"github.com/ressim/ressim/sim/telemetry"
)

// hostService turns a host (or host:port) into a service name: the first
// label of a DNS name (backend.default.svc.cluster.local → backend); an
// IP address stays as it is.
func hostService(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	if host == "" || net.ParseIP(host) != nil {
		return host
	}
	name, _, _ := strings.Cut(host, ".")
	return name
}

// known drops the placeholder "unknown" meshes write for a peer they
// could not identify.
func known(v string) string {
	if v == "unknown" {
		return ""
	}
	return v
}

// orLocal returns a name function giving local when it is set, else the
// first non-empty label of names, else fallback.
func orLocal(local, fallback string, names ...string) func(*telemetry.Series) string {
	from := byLabels(names...)
	return func(s *telemetry.Series) string {
		if local != "" {
			return local
		}
		if v := from(s); v != "" {
			return v
		}
		return fallback
	}
}
