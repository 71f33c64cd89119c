// Package promapi reads the answers of Prometheus' HTTP API into a
// telemetry.Set: a query_range answer saved to a file (ParseQueryRange,
// ReadFile), or one asked of a running server (Client.QueryRange).
//
// A matrix answer gives one series per result, a vector answer one
// point per series; a result without samples gives no series. Times, seconds in the answer, become milliseconds;
// values are strings, "NaN" and "±Inf" included. A series is named by its
// __name__ label (empty for a computed expression such as a rate) and
// its other labels, sorted by name. An answer with status "error" is an
// *APIError. The number of series and points is bounded by the same
// budgets as package promtext (a *promtext.BudgetError past them).
package promapi
