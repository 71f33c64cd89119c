// Package gameday plays a [gameday] experiment file: a live incident a
// room acts in, replayed to the byte.
//
// The players' moves are the file's [[gameday.move]] blocks, each pressed
// at a simulated instant (Played). WithMoves writes them into the file as
// [[action]] blocks in place of the file's own (the reference answer), so
// that the text the page downloads is an ordinary experiment file whose
// ressim run gives the same summary.json as the page did. Evaluate scores
// a game against doing nothing and against the reference answer, and
// RunbookHTML shows a runbook's markdown as escaped HTML.
//
// Everything here is deterministic: the runs are the simulator's, the
// times are simulated, and no map order reaches an output.
package gameday
