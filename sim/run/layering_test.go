package run

import (
	"bytes"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The rooms of sim/run are this package and each folder below it that
// holds Go files. Each does one job (its doc.go says which), and they are
// layered: a room imports only rooms on a lower level, so that each can
// be read, and tested, without those above it. From the bottom: runner
// (the guarded runner) and figures (one run's figures); output (where
// outputs go); run (running one experiment, and what every run reports);
// compare (variants side by side over replications), sweep (a
// parameter grid), margin (the smallest trigger that locks a system
// in) and rare (the probability of locking in with no trigger), none of
// which imports another; then shard
// (sharded runs and their merge) and hysteresis (a load ramped up and
// down, which reads sweep's capacities) at the top.
const runPath = "github.com/ressim/ressim/sim/run"

// level is each room's level; a room missing here fails the test, so a
// new room is placed on purpose.
var level = map[string]int{
	"runner":     0,
	"figures":    0,
	"output":     1,
	".":          2,
	"margin":     3,
	"rare":       3,
	"compare":    3,
	"sweep":      3,
	"shard":      4,
	"hysteresis": 4,
}

// maxRoomLines and maxRoomFiles bound a room's non-test files: lines (as
// wc -l counts them) and files.
const maxRoomLines, maxRoomFiles = 3000, 20

// roomOf is the room of an import path inside sim/run, and whether it is
// one.
func roomOf(p string) (string, bool) {
	if p == runPath {
		return ".", true
	}
	rest, ok := strings.CutPrefix(p, runPath+"/")
	if !ok {
		return "", false
	}
	room, _, _ := strings.Cut(rest, "/")
	return room, true
}

// TestLayering checks the rooms' imports and sizes, and that each room
// has a doc.go.
func TestLayering(t *testing.T) {
	rooms := []string{"."}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() && e.Name() != "testdata" {
			if m, _ := filepath.Glob(filepath.Join(e.Name(), "*.go")); len(m) > 0 {
				rooms = append(rooms, e.Name())
			}
		}
	}
	if len(rooms) < len(level) {
		t.Fatalf("rooms %v: want every room of level %v", rooms, level)
	}
	for _, room := range rooms {
		if _, ok := level[room]; !ok {
			t.Errorf("room %q has no level: place it in the layering (level)", room)
			continue
		}
		checkRoom(t, room)
	}
}

// checkRoom checks one room's non-test files.
func checkRoom(t *testing.T, room string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(room, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	lines, n, doc := 0, 0, false
	fset := token.NewFileSet()
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		n++
		doc = doc || filepath.Base(path) == "doc.go"
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines += bytes.Count(src, []byte("\n"))
		f, err := parser.ParseFile(fset, path, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if to, ok := roomOf(p); ok && level[to] >= level[room] {
				t.Errorf("%s imports %s: room %q (level %d) may import only rooms below it, and %q is on level %d", path, p, room, level[room], to, level[to])
			}
		}
	}
	if lines > maxRoomLines || n > maxRoomFiles {
		t.Errorf("room %q: %d lines in %d files, limit %d lines and %d files: split it by job", room, lines, n, maxRoomLines, maxRoomFiles)
	}
	if !doc {
		t.Errorf("room %q has no doc.go saying its one job", room)
	}
}
