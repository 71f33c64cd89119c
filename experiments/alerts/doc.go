// Package alerts holds alerting examples: experiments whose incidents
// test Prometheus alerting rules, each with its rules file. The
// experiment files name their rules in [alerts] and state the detection
// times in [[expect]] blocks on alerts, so ressim alerts FILE checks
// them without --rules; its tests assert which alerts fire and how fast,
// and that the files' own expectations hold (docs/observability.md).
package alerts
