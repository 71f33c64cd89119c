// Command ressim runs experiments with ressim, the deterministic simulator
// of cascading and metastable failure. An experiment is a TOML file (see
// docs/experiment-format.md); the same file and seed always give
// byte-identical outputs.
//
// Usage:
//
//	ressim run FILE      [-o DIR] [--seed N] [--no-plots] [--svg] [--trace N] [budget flags]
//	ressim run FILE      --variant V --replication K [--cell X[,Y]] [--replications N]
//	ressim compare FILE  [-o DIR] [-j N] [--replications N] [--seed N] [--no-plots] [--svg] [--series first|all|none] [budget flags]
//	ressim sweep FILE    [-o DIR] [-j N] [--replications N] [--seed N] [--no-plots] [--svg] [budget flags]
//	ressim margin FILE   [--fault LABEL] [--by duration|size|load] [--target P] [--points N] [--replications N] [-o DIR] [-j N] [--seed N] [--estimate] [budget flags]
//	ressim ctmc FILE     [--truncation EPS] [-o DIR]
//	ressim alerts FILE   --rules RULES.yml [--eval-interval D] [--promtool-test OUT.yml] [--figure F.png] [--expect TEXT]... [--variant V --replication K]
//	ressim compare|sweep FILE --shard I/N|auto/N [-o PARTS] [-j N] [--replications N] [--seed N]
//	ressim merge -o DIR [--no-plots] [--svg] [-j N] [--verify K [--verify-seed S]] [budget flags] PARTIAL...
//	ressim validate FILE
//	ressim lint FILE     [--format text|json|sarif] [--fail-on error|warning|note|never] [--variant V] [--simulate] [--import KIND]
//	ressim import KIND FILE... [-o experiment.toml] [--into EXP.toml --map SRC=CALLER:CALLEE | --map-file F]
//	ressim version
//	ressim completion bash|zsh|fish|powershell
//	ressim help [COMMAND]
//
// # Commands
//
// run simulates the experiment once and writes to the output directory
// (default out/<experiment name>): summary.json (per-service statistics
// over the measurement window), timeseries.csv (per-interval metrics of the
// whole run), overview.png and one timeline-<service>.png per service
// (unless --no-plots), every figure also as SVG with --svg, and with
// --trace N a trace.json of one user request in N (at most 200 requests)
// for ui.perfetto.dev (with --trace-format otlp or both, trace.otlp.json:
// the same requests as an OpenTelemetry OTLP/JSON trace). It prints the headline first (the first fault's
// verdict, the users' goodput share, the requests in flight at the end),
// then one line per client, service and fault (with the fault's recovery
// verdict and its reason), then the result of each [[expect]].
//
// compare runs the base experiment and each [[variant]],
// [experiment].replications times each (or --replications), with the same
// seeds for every variant so that differences are paired (common random
// numbers). It prints each headline metric's mean with its 95 % Student-t
// interval and each variant's paired difference from the base, then the
// result of each [[expect]], and writes compare.md, compare.csv,
// compare.json, compare-timeline.png and bars-<metric>.png to the output
// directory (default out/<experiment name>/compare).
//
// sweep runs the experiment's [sweep] grid of one or two parameters, each
// cell [experiment].replications times (or --replications), for the base or
// the listed variants, with the same seeds in every cell. It prints the
// grid and writes sweep.md, sweep.csv, sweep.json and the plots
// (phase-<variant>.png heatmaps for two axes, sweep-<metric>.png for one)
// to the output directory (default out/<experiment name>/sweep). A file
// without a [sweep] table is a command-line error. sweep does not check
// [[expect]] blocks.
//
// margin finds the smallest trigger (the judged fault's duration or size,
// or the offered load under it) at which P(locked in) reaches --target
// (default 0.5), with a 95 % profile-likelihood interval, by replications
// at points chosen by a scan and a logistic dose-response fit, and writes
// margin.json and margin.png (default out/<experiment name>/margin;
// docs/edge.md).
//
// alerts evaluates Prometheus alerting rules on the run and on the same run
// without its faults with promtool test rules, and prints for every fault
// and alert when it went pending, fired and resolved, and the false alarms
// (docs/observability.md). run --openmetrics also writes metrics.om, the
// time series as OpenMetrics text for Prometheus.
//
// lint checks the experiment, the base and every variant, against the
// resilience review checklist (docs/lint.md): one finding per line with
// file:line:col, rule ID and variant, and the worst-case retry
// amplification of every call path; --format json or sarif (SARIF 2.1.0)
// for machines. --simulate also runs four standard stress scenarios
// (dependency x10 slower, latency spike, instance crash, 150 % surge) and
// reports their verdicts and the measured amplification.
//
// import turns real configurations (KIND grpc: gRPC service config JSON;
// resilience4j: Spring Boot application.yml; envoy: Envoy v3 clusters and
// routes; istio: DestinationRule and VirtualService YAML) into a skeleton
// experiment, or with --into onto an existing experiment's calls, every
// setting commented with its source file:line:col (docs/import.md).
//
// compare and sweep with --shard I/N run only shard I of N's share of the
// runs (balanced by estimated cost; auto/N takes I from a Kubernetes
// Indexed Job's or a Slurm array's environment) into a resumable partial
// file in the output directory (default out/<experiment name>/shards).
// merge turns every shard's partial file (files, folders or globs) into
// exactly the outputs of the unsharded command, byte for byte, and refuses
// (exit status 2) missing, duplicated, corrupt or mismatched partials. Their
// checksums catch corruption, not forgery: --verify K re-runs K units chosen
// at random and refuses the merge unless each reproduces its partial line
// byte for byte. See docs/scale-out.md.
//
// validate reads the file as a run would and reports every problem with its
// file, line, column and key, without running anything; for a valid file it
// prints the estimated cost of one run, of the comparison and of the sweep
// (events, series points, memory, and the keys that drive them).
//
// version (or -v, --version) prints ressim's version; completion writes a shell
// completion script; help describes a command.
//
// # Flags
//
// run, compare and sweep share:
//
//	-o, --out DIR         output directory (defaults above)
//	--seed N              override the experiment's seed, 0 to 2^62
//	--no-plots            skip drawing the plots (data files only)
//	--svg                 also write every figure as SVG
//	--max-events N        refuse or stop beyond N simulated events, all runs
//	                      together (default 1e10; 0: no limit)
//	--max-memory SIZE     stop when the heap exceeds SIZE (default auto: 4GiB,
//	                      or half the address-space limit or RAM if less)
//	--timeout D           stop after D of wall time (default 1h); finished
//	                      runs are kept
//
// compare and sweep add:
//
//	-j, --jobs N          runs in parallel, 1 to 256 (default: the number of
//	                      CPUs); the results do not depend on it
//	--replications N      override [experiment].replications, 1 to 10000
//
// Every command takes --cpuprofile FILE: a CPU profile of the command, for
// go tool pprof (what to attach to a report that a run is slow;
// scripts/pgo.sh merges such profiles into cmd/ressim/default.pgo).
//
// run adds --trace N (trace one user request in N into trace.json) with
// --trace-format perfetto|otlp|both (trace.json, trace.otlp.json or both), and
// --variant V --replication K (with --cell X[,Y] for a sweep cell, by the
// axis indices of sweep.json) to re-run exactly one replication of a
// comparison or sweep, byte-identical to what it computed; compare adds
// --series first|all|none (which replications' time series to write).
//
// On a terminal, run shows the simulated time reached and compare and sweep
// the runs finished, as a progress bar on standard error. Ctrl-C or SIGTERM
// stops the runs in progress: compare and sweep write the replications that
// every variant or cell finished, run writes nothing, and all exit with
// status 1; a second signal stops at once.
//
// Outputs are written all-or-nothing: into a hidden staging folder beside the
// output folder, swapped into place at the end, so that the output folder
// holds the complete previous set or the complete new one, never a mix; the
// output folder is checked before anything runs. A figure that cannot be
// drawn is a warning, never a failure. See docs/security.md.
//
// # Exit status
//
//	0  success (for run and compare, every [[expect]] held)
//	1  a run failed (an I/O error, an unusable output folder) or the
//	   command was interrupted (SIGINT, SIGTERM)
//	2  the experiment file is invalid or cannot be read, or the command
//	   line is invalid (unknown command, flag or shell, wrong number of
//	   arguments, a count or seed out of range, sweep on a file without
//	   [sweep])
//	3  an [[expect]] failed (run and compare); the outputs are written
//	   first
//	4  a budget refused the command before it ran (the estimate) or stopped
//	   it (events, memory, wall time); the message names the budget, the
//	   keys that drive the cost and the flag that raises it; compare and
//	   sweep write the replications that finished
//	5  an internal error: a bug, reported as one line with a request to
//	   file it (RESSIM_DEBUG=1 prints the stack)
//	6  lint found a finding at or above its --fail-on severity (default
//	   error); the report is written first
package main
