package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
)

// TestWorkshopCommands checks that every experiment the workshop runs
// exists and is valid, and that sweep and compare commands name files with
// a [sweep] table or variants.
func TestWorkshopCommands(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "notebooks", "workshop.md"))
	if err != nil {
		t.Fatal(err)
	}
	cmds := regexp.MustCompile(`\./ressim (run|compare|sweep|validate) (experiments/\S+\.toml)`).FindAllStringSubmatch(string(doc), -1)
	if len(cmds) < 10 {
		t.Fatalf("found %d commands in the workshop", len(cmds))
	}
	for _, c := range cmds {
		exp, err := experiment.Load(filepath.Join("..", "..", c[2]))
		if err != nil {
			t.Errorf("%s: %v", c[0], err)
			continue
		}
		switch c[1] {
		case "sweep":
			if exp.Sweep == nil {
				t.Errorf("%s: the file has no [sweep]", c[0])
			}
		case "compare":
			if len(exp.Variants) == 0 {
				t.Errorf("%s: the file has no variants", c[0])
			}
		}
	}
}
