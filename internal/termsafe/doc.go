// Package termsafe makes text that came from a user (a key or a name in an
// imported configuration, a file name, a value quoted back in an error)
// safe to print on a terminal: such text cannot move the cursor, clear the
// screen, change colours, set the window title or hide what follows it.
//
// Every C0 control character (U+0000 to U+001F), DEL (U+007F), every C1
// control character (U+0080 to U+009F, which some terminals obey when
// UTF-8-encoded), every byte that is not part of valid UTF-8 (a lone 0x9B
// is CSI to a terminal in an 8-bit mode), Unicode's invisible format
// characters (bidirectional overrides, zero-width characters: category
// Cf) and the line and paragraph separators U+2028 and U+2029 are
// replaced by a visible Go-style escape: \n, \r, \t, \x1b, \u009b,
// \u202e, and \xff for a byte that is not UTF-8. Escape sequences are
// thereby neutralised, since each begins with ESC (or the C1 CSI, OSC,
// DCS...): ESC [ 2 J prints as the seven characters \x1b[2J. Everything
// else, backslashes included, is kept as it is, so file names and
// messages read as before.
//
// Line returns one line (newlines escaped too); Text keeps newlines, for
// messages that are several lines by design.
package termsafe
