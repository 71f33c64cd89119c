package experiment

import (
	"testing"

	"github.com/ressim/ressim/sim/internal/roomcheck"
)

// TestRoomsStaySmall keeps the package readable: files under 400 lines,
// functions under 60, except the readers listed, each a sequence of keys
// read in the order their errors are reported (splitting them would move
// that order out of sight).
func TestRoomsStaySmall(t *testing.T) {
	roomcheck.Check(t, roomcheck.Limits{File: 400, Func: 60, Exempt: map[string]string{
		"value": "a switch over TOML value kinds",
	}})
}
