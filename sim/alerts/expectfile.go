package alerts

import (
	"context"
	"fmt"
	"strings"

	"github.com/ressim/ressim/sim/experiment"
)

// ExpectFrom converts an [[expect]] block on an alert into an Expect;
// Text names the block's place in the file and restates it.
func ExpectFrom(file string, x experiment.AlertExpect) Expect {
	e := Expect{Alert: x.Alert, Fault: x.Fault, Baseline: x.Baseline}
	var what string
	switch {
	case x.NeverFires && x.Alert == "*" && x.Baseline:
		e.Kind, what = "no-false-alarms", "no false alarms"
	case x.NeverFires:
		e.Kind, what = "silent", x.Alert+" never fires"
	case x.FiresWithin > 0:
		e.Kind, e.Limit, what = "fires", x.FiresWithin, fmt.Sprintf("%s fires within %v", x.Alert, x.FiresWithin)
	default:
		e.Kind, e.Limit, what = "resolves", x.ResolvesWithin, fmt.Sprintf("%s resolves within %v", x.Alert, x.ResolvesWithin)
	}
	switch {
	case x.Fault != "":
		what += fmt.Sprintf(" in %q", x.Fault)
	case x.Baseline && e.Kind == "silent":
		what += " in the baseline"
	}
	e.Text = fmt.Sprintf("%s:%d: %s", file, x.Where.Line, what)
	return e
}

// UnknownAlert returns why the expectation's alert is not one of the
// rules file's alert names (names), or "" if it is. An alert written with
// labels (name{...}) is judged by its name; "*" is any alert.
func UnknownAlert(alert string, names []string) string {
	if alert == "*" {
		return ""
	}
	base := strings.SplitN(alert, "{", 2)[0]
	for _, n := range names {
		if n == base {
			return ""
		}
	}
	return fmt.Sprintf("no alert named %q in the rules file; it declares: %s", base, strings.Join(names, ", "))
}

// RuleAlertNames checks the rules file with promtool check rules and
// returns the alert names it declares, in file order.
func RuleAlertNames(ctx context.Context, rules string) ([]string, error) {
	return checkRules(ctx, rules)
}
