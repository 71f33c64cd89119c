package headless

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/ressim/ressim/internal/tooltest"
)

// fakeChrome writes a launcher that appends a line to the file count on
// each start, exits 1 on the first fails starts, and after them execs
// the program then.
func fakeChrome(t *testing.T, fails int, then string) (launcher, count string) {
	t.Helper()
	dir := t.TempDir()
	count = filepath.Join(dir, "starts")
	launcher = filepath.Join(dir, "chrome")
	script := "#!/bin/sh\necho >> " + count + "\n" +
		"if [ $(wc -l < " + count + ") -le " + strconv.Itoa(fails) + " ]; then exit 1; fi\n" +
		"exec " + then + " \"$@\"\n"
	if err := os.WriteFile(launcher, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return launcher, count
}

func starts(t *testing.T, count string) int {
	t.Helper()
	b, err := os.ReadFile(count)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "\n")
}

// TestStartRetries: a browser that exits at its first start (as Chromium
// sometimes does on a loaded machine) is started again on a fresh
// allocator, each failed try is logged, and the context works.
func TestStartRetries(t *testing.T) {
	chrome := tooltest.Need(t, "chromium", "chromium-browser", "google-chrome")
	launcher, count := fakeChrome(t, Tries-1, chrome)
	var logged []string
	ctx, stop, err := Start(context.Background(), Options{Chrome: launcher,
		Logf: func(f string, a ...any) { logged = append(logged, f) }})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	got, err := chromedp.Run(ctx, chromedp.Evaluate[int]("6 * 7"))
	if err != nil || got != 42 {
		t.Fatalf("evaluate in the restarted browser: %d, %v", got, err)
	}
	if n := starts(t, count); n != Tries {
		t.Errorf("%d starts, want %d", n, Tries)
	}
	if len(logged) != Tries-1 {
		t.Errorf("%d failed tries logged, want %d", len(logged), Tries-1)
	}
}

// TestStartGivesUp: a browser that never starts is tried Tries times,
// and the error names it; a cancelled context is not tried again.
func TestStartGivesUp(t *testing.T) {
	launcher, count := fakeChrome(t, 99, "false")
	_, _, err := Start(context.Background(), Options{Chrome: launcher})
	if err == nil || !strings.Contains(err.Error(), launcher) {
		t.Fatalf("error %v, want one naming %s", err, launcher)
	}
	if n := starts(t, count); n != Tries {
		t.Errorf("%d starts, want %d", n, Tries)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	tries := 0
	if _, _, err := Start(ctx, Options{Chrome: launcher, Logf: func(string, ...any) { tries++ }}); err == nil {
		t.Fatal("a start under a cancelled context succeeded")
	}
	if tries != 1 {
		t.Errorf("%d tries under a cancelled context, want 1", tries)
	}
}
