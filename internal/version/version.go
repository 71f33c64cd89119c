// Package version holds ressim's version string, written into every
// summary so that results can be traced to the code that produced them,
// and the build's stamp (module version, commit), which 'ressim version'
// prints so that a binary can be traced to its source.
package version

import (
	"runtime"
	"runtime/debug"
	"strings"
)

// Version is ressim's semantic version. It is a constant, not build
// metadata, so that outputs (summary.json's ressim_version, partial
// files' headers) are byte-identical across builds of one version. The
// build's commit is in Build, printed by 'ressim version', never in
// outputs.
const Version = "0.1.0"

// Release builds may set these with the linker, which overrides what the
// Go toolchain stamped (or stands in for it when nothing was stamped: a
// build from a git worktree, from a tree without .git such as a docker
// build context, or with -buildvcs=false):
//
//	go build -ldflags "-X github.com/ressim/ressim/internal/version.commit=$(git rev-parse HEAD)
//	  -X github.com/ressim/ressim/internal/version.commitTime=$(git log -1 --format=%cI)
//	  -X github.com/ressim/ressim/internal/version.module=v0.1.0" ./cmd/ressim
//
// modified may be set to "true" or "false".
var commit, commitTime, modified, module string

// Info is what is known of the build.
type Info struct {
	Version  string // Version
	Module   string // the main module's version: "(devel)" from a checkout, vX.Y.Z from 'go install ...@vX.Y.Z'
	Commit   string // vcs.revision, or "" if unknown
	Time     string // vcs.time (the commit's time, RFC 3339), or ""
	Modified string // vcs.modified: "true" if built from a tree with uncommitted changes, "false", or ""
	Go       string // the toolchain, e.g. go1.26.8
}

// Build returns the running binary's stamp: debug.ReadBuildInfo's, with
// the linker-set values above taking precedence.
func Build() Info {
	bi, _ := debug.ReadBuildInfo()
	return fromBuildInfo(bi)
}

func fromBuildInfo(bi *debug.BuildInfo) Info {
	in := Info{Version: Version, Go: runtime.Version()}
	if bi != nil {
		in.Module = bi.Main.Version
		if bi.GoVersion != "" {
			in.Go = bi.GoVersion
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				in.Commit = s.Value
			case "vcs.time":
				in.Time = s.Value
			case "vcs.modified":
				in.Modified = s.Value
			}
		}
	}
	for _, o := range []struct {
		dst *string
		v   string
	}{{&in.Commit, commit}, {&in.Time, commitTime}, {&in.Modified, modified}, {&in.Module, module}} {
		if o.v != "" {
			*o.dst = o.v
		}
	}
	return in
}

// String is one line: "ressim 0.1.0 (commit C, modified, time T, module
// M, go1.26.8)", leaving out what is unknown; a build that knows no
// commit says "commit unknown".
func (in Info) String() string {
	var b strings.Builder
	b.WriteString("ressim " + in.Version + " (commit ")
	if in.Commit == "" {
		b.WriteString("unknown")
	} else {
		b.WriteString(in.Commit)
	}
	if in.Modified == "true" {
		b.WriteString(", modified")
	}
	if in.Time != "" {
		b.WriteString(", time " + in.Time)
	}
	if in.Module != "" {
		b.WriteString(", module " + in.Module)
	}
	b.WriteString(", " + in.Go + ")")
	return b.String()
}
