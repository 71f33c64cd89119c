// Package callgraph builds, from trace spans, the call graph a simulator
// needs: per service its requests, their durations and own (self) times;
// per caller→callee edge how many calls a request makes, whether they run
// in parallel, and their latencies; and the user-facing entry points
// with their arrival rates.
//
// A request at service S is an entry span of S: a SERVER or CONSUMER
// span, a span with no parent in the data, or a span whose parent belongs
// to another service (the span CSV and in-process Zipkin spans carry no
// kind). Its calls are found by walking its descendants inside S: a
// CLIENT or PRODUCER span is one call, to the service of its server child
// or else to its Peer; a kindless span of S whose children all belong to
// other services is taken for a client span (as the span CSV writes
// them); an entry span of another service met directly is a call too.
// Zipkin's shared spans (a CLIENT and a SERVER span with one ID) are
// joined: the server half is the client half's child.
//
// The data is checked, never trusted: orphans (a parent ID not in the
// data), cycles in parent links, duplicated span IDs and children that
// start before or end after their parent (clock skew) are counted in
// Graph.Issues; Build never panics on them. Everything in a Graph is
// sorted (services by name, edges by caller then callee, roots by service
// then operation, samples ascending), so equal input gives equal output.
package callgraph
