package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// workshopCmd is one `./ressim ...` line of notebooks/workshop.md with the
// claims written after it.
type workshopCmd struct {
	line   int
	args   []string // after ./ressim
	flags  []string // from <!-- test-flags: ... -->
	claims []string // from <!-- check: ... -->
}

var (
	cmdLine   = regexp.MustCompile(`^\./ressim ((?:run|compare|sweep|hysteresis|validate) experiments/\S+\.toml.*)$`)
	checkLine = regexp.MustCompile(`^<!-- check: (.+) -->$`)
	flagsLine = regexp.MustCompile(`^<!-- test-flags: (.+) -->$`)
)

// parseWorkshop reads the commands in ```sh blocks and binds each check
// comment to the command before it.
func parseWorkshop(doc []byte) ([]workshopCmd, error) {
	var cmds []workshopCmd
	sc := bufio.NewScanner(bytes.NewReader(doc))
	for n := 1; sc.Scan(); n++ {
		l := strings.TrimSpace(sc.Text())
		m := cmdLine.FindStringSubmatch(l)
		c := checkLine.FindStringSubmatch(l)
		fl := flagsLine.FindStringSubmatch(l)
		switch {
		case m != nil:
			cmds = append(cmds, workshopCmd{line: n, args: strings.Fields(m[1])})
		case (c != nil || fl != nil) && len(cmds) == 0:
			return nil, fmt.Errorf("workshop.md:%d: a check before any command", n)
		case c != nil:
			cmds[len(cmds)-1].claims = append(cmds[len(cmds)-1].claims, c[1])
		case fl != nil:
			cmds[len(cmds)-1].flags = append(cmds[len(cmds)-1].flags, strings.Fields(fl[1])...)
		case strings.HasPrefix(l, "<!-- check"):
			return nil, fmt.Errorf("workshop.md:%d: malformed check comment", n)
		}
	}
	return cmds, sc.Err()
}

// TestWorkshopCommands runs every command of notebooks/workshop.md, from the
// repository's root as the workshop does, into a temporary directory, and
// checks every claim written after it against its outputs. A claim that no
// longer holds (a number in a question, a verdict, a figure) fails here.
func TestWorkshopCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every workshop command (about a minute); skipped with -short")
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "notebooks", "workshop.md"))
	if err != nil {
		t.Fatal(err)
	}
	cmds, err := parseWorkshop(doc)
	if err != nil {
		t.Fatal(err)
	}
	// Sessions 1 to 6 each run at least one experiment, and most claims.
	if len(cmds) < 12 {
		t.Fatalf("found %d commands in the workshop", len(cmds))
	}
	t.Chdir(filepath.Join("..", ".."))
	out := t.TempDir()
	for i, c := range cmds {
		name := fmt.Sprintf("line%d-%s", c.line, c.args[0])
		t.Run(name, func(t *testing.T) {
			runWorkshopCmd(t, c, filepath.Join(out, fmt.Sprint(i)))
		})
	}
}

func runWorkshopCmd(t *testing.T, c workshopCmd, dir string) {
	args := append(append([]string{}, c.args...), c.flags...)
	if c.args[0] != "validate" {
		args = append(args, "-o", dir)
	} else if len(c.claims) > 0 {
		t.Fatalf("workshop.md:%d: validate writes no outputs to check", c.line)
	}
	code, _, errOut := ressim(args...)
	if code != exitOK {
		t.Fatalf("workshop.md:%d: ressim %s: exit %d: %s", c.line, strings.Join(args, " "), code, errOut)
	}
	for _, claim := range c.claims {
		if err := checkClaim(dir, claim); err != nil {
			t.Errorf("workshop.md:%d: check %q: %v", c.line, claim, err)
		}
	}
}
