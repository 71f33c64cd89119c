package version

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/ressim/ressim", Version: "(devel)"},
		Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "0123abcd"},
			{Key: "vcs.time", Value: "2026-01-02T03:04:05Z"}, {Key: "vcs.modified", Value: "true"}}}
	got := fromBuildInfo(bi).String()
	if want := "ressim 0.1.0 (commit 0123abcd, modified, time 2026-01-02T03:04:05Z, module (devel), go1.26.8)"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if got := fromBuildInfo(nil).String(); !strings.HasPrefix(got, "ressim 0.1.0 (commit unknown, go") {
		t.Errorf("no build info: %q", got)
	}
}

// The linker's values (-ldflags -X) override the toolchain's stamp.
func TestLinkerOverride(t *testing.T) {
	defer func(c, m, mod string) { commit, modified, module = c, m, mod }(commit, modified, module)
	commit, modified, module = "feedface", "false", "v0.1.0"
	bi := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.modified", Value: "true"}}}
	in := fromBuildInfo(bi)
	if in.Commit != "feedface" || in.Modified != "false" || in.Module != "v0.1.0" {
		t.Errorf("%+v", in)
	}
}

// Version stays the constant that outputs embed, whatever the build.
func TestVersionConstant(t *testing.T) {
	if Build().Version != Version || Version != "0.1.0" {
		t.Errorf("Version %q, Build().Version %q", Version, Build().Version)
	}
}
