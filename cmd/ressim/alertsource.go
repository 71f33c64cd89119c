package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/ressim/ressim/sim/alerts"
	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
)

// alertSrc is where ressim alerts takes its rules, evaluation interval and
// expectations from.
type alertSrc struct {
	rules  string
	every  time.Duration // 0: the flag's
	checks []alerts.Expect
}

// alertSource returns the rules file to evaluate: --rules if given (the
// experiment's [[expect]] blocks on alerts are then not checked: they are
// about its own rules), else the experiment's [alerts] rules, resolved
// below the experiment file's folder, with the [[expect]] blocks on
// alerts for the run evaluated (the base, or replica's variant). An
// expectation naming an alert the rules do not declare is an invalid
// file (exit status 2).
func alertSource(ctx context.Context, w io.Writer, file string, exp *experiment.Experiment, flag string, replica *run.Replica) (alertSrc, error) {
	if flag != "" {
		if _, err := os.Stat(flag); err != nil {
			return alertSrc{}, usageError{fmt.Errorf("--rules: %w", err)}
		}
		if n := len(exp.AlertExpects); n > 0 {
			fmt.Fprintf(w, "--rules given: the experiment's %d [[expect]] block(s) on alerts are not checked\n", n)
		}
		return alertSrc{rules: flag}, nil
	}
	if exp.Alerts == nil {
		return alertSrc{}, usageError{fmt.Errorf("--rules is required: %s has no [alerts] table naming a rules file", file)}
	}
	if file == experiment.Stdin {
		return alertSrc{}, usageError{fmt.Errorf("an experiment read from standard input has no folder to find its [alerts] rules in: pass --rules")}
	}
	rules, err := resolveRules(file, exp.Alerts.Rules)
	if err != nil {
		return alertSrc{}, err
	}
	names, err := alerts.RuleAlertNames(ctx, rules)
	if err != nil {
		return alertSrc{}, err
	}
	variant := "base"
	if replica != nil && replica.Variant != "" {
		variant = replica.Variant
	}
	src := alertSrc{rules: rules, every: exp.Alerts.EvalInterval}
	var bad experiment.ErrorList
	skipped := 0
	for _, x := range exp.AlertExpects {
		if msg := alerts.UnknownAlert(x.Alert, names); msg != "" {
			bad = append(bad, &experiment.Error{File: file, Pos: x.Where, Key: x.Key, Msg: msg})
			continue
		}
		if x.Variant != variant {
			skipped++
			continue
		}
		src.checks = append(src.checks, alerts.ExpectFrom(file, x))
	}
	if len(bad) > 0 {
		return alertSrc{}, bad
	}
	if skipped > 0 {
		fmt.Fprintf(w, "%d [[expect]] block(s) on alerts are for another variant than %q: not checked\n", skipped, variant)
	}
	return src, nil
}

// resolveRules returns the path of the [alerts] rules file rel (checked by
// the loader: relative, slash-separated, no "." or ".." element) below
// the experiment file's folder. It opens the file through an os.Root on
// that folder, so a symbolic link leading out of it is refused too.
func resolveRules(file, rel string) (string, error) {
	dir := filepath.Dir(file)
	root, err := os.OpenRoot(dir)
	if err != nil {
		return "", usageError{fmt.Errorf("[alerts] rules: %w", err)}
	}
	defer root.Close()
	f, err := root.Open(filepath.FromSlash(rel))
	if err != nil {
		return "", usageError{fmt.Errorf("[alerts] rules %q (below %s): %w", rel, dir, err)}
	}
	f.Close()
	return filepath.Join(dir, filepath.FromSlash(rel)), nil
}
