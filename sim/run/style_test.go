package run

import (
	"testing"

	"github.com/ressim/ressim/sim/internal/roomcheck"
)

// TestRoomsStaySmall keeps the package readable: functions under 60 lines
// and files under 400 lines.
func TestRoomsStaySmall(t *testing.T) {
	roomcheck.Check(t, roomcheck.Limits{File: 400, Func: 60})
}
