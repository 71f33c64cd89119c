package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCheckClaim shows that the claim language can fail: each false claim
// about a small summary.json and timeseries.csv is rejected, each true one
// accepted.
func TestCheckClaim(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("summary.json", `{"headline": {"verdict": "locked_in"}, "cells": [{"x": 1, "v": 0}, {"x": 1, "v": 2}, {"x": 3, "v": 9}]}`)
	write("timeseries.csv", "t_start_s,t_end_s,entity,metric,unit,value\n0,1,api,q,requests,4\n1,2,api,q,requests,8\n2,3,api,q,requests,100\n")
	write("events.csv", "t_s,kind,subject,from,to,detail\n20.4,breaker,a->b/call,closed,open,failure_rate\n35.4,breaker,a->b/call,open,half_open,pause_elapsed\n35.7,probe,a->b/call,half_open,failed,probe 1 of 3\n35.7,breaker,a->b/call,half_open,open,probe_failed\n")
	for _, tc := range []struct {
		claim string
		ok    bool
	}{
		{`summary.json headline.verdict == "locked_in"`, true},
		{`summary.json headline.verdict == "recovered"`, false},
		{`summary.json cells.x=3.v == 9`, true},
		{`summary.json cells.x=1.v <= 1`, false}, // one of the two cells fails
		{`summary.json cells.x=1.v within 0 2`, true},
		{`summary.json cells.x=7.v == 0`, false}, // nothing matches
		{`summary.json cells.5.v == 0`, false},
		{`summary.json nothing.v == 0`, false},
		{`timeseries.csv api q 0 2 mean == 6`, true},
		{`timeseries.csv api q 0 3 max < 100`, false},
		{`timeseries.csv api q 5 9 max == 0`, false}, // no intervals
		{`timeseries.csv api q 0 2 median == 6`, false},
		{`events.csv breaker a->b/call sequence closed->open open->half_open half_open->open`, true},
		{`events.csv breaker a->b/call sequence closed->open half_open->open`, false},
		{`events.csv breaker a->b/call to=open 2 at within 35 36`, true},
		{`events.csv breaker a->b/call to=open 1 at within 35 36`, false}, // the first opening is at 20.4
		{`events.csv breaker a->b/call to=open 3 at > 0`, false},          // only two
		{`events.csv probe a->b/call to=failed 1 at < 36`, true},
		{`events.csv breaker x->y/call sequence`, true}, // no moves, as claimed
		{`events.csv breaker a->b/call to=open x at > 0`, false},
		{`exists summary.json`, true},
		{`exists overview.png`, false},
	} {
		err := checkClaim(dir, tc.claim)
		if (err == nil) != tc.ok {
			t.Errorf("%s: err = %v, want ok = %v", tc.claim, err, tc.ok)
		}
	}
}

// TestParseWorkshop binds checks to the command before them and rejects a
// check with no command.
func TestParseWorkshop(t *testing.T) {
	cmds, err := parseWorkshop([]byte("```sh\n./ressim run experiments/a.toml\n```\n<!-- check: exists x.png -->\n<!-- test-flags: --replications 2 -->\n./ressim sweep experiments/b.toml\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cmds) != 2 || len(cmds[0].claims) != 1 || len(cmds[0].flags) != 2 || cmds[1].args[0] != "sweep" {
		t.Errorf("parsed %+v", cmds)
	}
	if _, err := parseWorkshop([]byte("<!-- check: exists x.png -->\n")); err == nil {
		t.Error("a check before any command was accepted")
	}
	if _, err := parseWorkshop([]byte("./ressim run experiments/a.toml\n<!-- check exists x.png -->\n")); err == nil {
		t.Error("a malformed check was accepted")
	}
}
