// Package alerts holds alerting examples: experiments whose incidents
// test Prometheus alerting rules (ressim alerts FILE --rules RULES.yml),
// each with its rules file; its tests assert which alerts fire and how
// fast (docs/observability.md).
package alerts
