"""Helpers the workshop labs share: find the ressim binary, run it, read its
tidy outputs (summary.json, compare.json, sweep.json, timeseries.csv,
events.csv).

The binary is $RESSIM if set, else `ressim` on PATH; build it with
`go build -o ressim ./cmd/ressim` from the repository's root and put it on
PATH (or set RESSIM to its path). Outputs go to $RESSIM_LAB_OUT if set, else
out/labs/ under the repository's root. Needs pandas and matplotlib only.
"""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(os.environ.get("RESSIM_LAB_OUT") or ROOT / "out" / "labs")


def binary():
    """The ressim binary's path; raises a clear error when there is none."""
    path = os.environ.get("RESSIM") or shutil.which("ressim")
    if not path or not Path(path).is_file():
        raise RuntimeError(
            "ressim binary not found (RESSIM=%r, and no `ressim` on PATH). "
            "Build it from the repository's root with `go build -o ressim ./cmd/ressim` "
            "and set RESSIM to its absolute path, or put it on PATH." % os.environ.get("RESSIM"))
    return path


def ressim(*args, out=None, expect_exit=0):
    """Run `ressim ARGS -o OUT/<out>` from the repository's root; print what
    it prints and return the output directory. Raises unless the exit status
    is expect_exit (3: an [[expect]] failed)."""
    cmd = [binary(), *map(str, args)]
    outdir = None
    if args[0] != "validate":
        outdir = OUT / (out or Path(str(args[1])).stem + "-" + args[0])
        cmd += ["-o", str(outdir)]
    print("$ ressim " + " ".join(map(str, args)))
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    print(p.stdout, p.stderr, sep="")
    if p.returncode != expect_exit:
        raise RuntimeError("ressim exited with status %d, expected %d" % (p.returncode, expect_exit))
    return outdir


def edited(src, name, replace=(), append=""):
    """Write a copy of experiments file src with each (old, new) of replace
    applied (old must occur) and append added; return its path, for the
    labs' "what to change" cells. The original file is left alone."""
    text = (ROOT / src).read_text()
    for old, new in replace:
        if old not in text:
            raise ValueError("%r not found in %s" % (old, src))
        text = text.replace(old, new)
    path = OUT / "edited" / (name + ".toml")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text + append)
    return path


def load(outdir, name):
    """A JSON output (summary.json, compare.json, sweep.json) as a dict."""
    return json.loads((Path(outdir) / name).read_text())


def series(outdir, entity, metric, variant=None):
    """One metric of timeseries.csv as a Series indexed by interval end (s);
    in a comparison's file, replication 0 of variant."""
    ts = pd.read_csv(Path(outdir) / "timeseries.csv")
    rows = ts[(ts.entity == entity) & (ts.metric == metric)]
    if "variant" in ts.columns:
        rows = rows[(rows.variant == (variant or "base")) & (rows.replication == 0)]
    return rows.set_index("t_end_s")["value"]


def events(outdir, kind=None, subject=None):
    """events.csv (every state change of a run, when it happened) as a
    DataFrame with columns t_s, kind, subject, from, to, detail; only the
    rows of kind and subject when given."""
    ev = pd.read_csv(Path(outdir) / "events.csv", keep_default_na=False)
    if kind is not None:
        ev = ev[ev.kind == kind]
    if subject is not None:
        ev = ev[ev.subject == subject]
    return ev.reset_index(drop=True)


def compared(outdir, metric):
    """compare.json's mean of a headline metric, per variant."""
    for m in load(outdir, "compare.json")["metrics"]:
        if m["metric"] == metric:
            return {v["variant"]: v["mean"] for v in m["variants"]}
    raise KeyError(metric)


def show(outdir, png):
    """Display a PNG ressim wrote."""
    from IPython.display import Image, display
    display(Image(filename=str(Path(outdir) / png)))
