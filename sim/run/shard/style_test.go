package shard

import (
	"testing"

	"github.com/ressim/ressim/sim/internal/roomcheck"
)

// TestRoomsStaySmall keeps the package readable: files under 400 lines,
// functions under 60.
func TestRoomsStaySmall(t *testing.T) {
	roomcheck.Check(t, roomcheck.Limits{File: 400, Func: 60})
}
