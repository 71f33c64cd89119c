package report

import (
	"bytes"
	"sync"
	"testing"
)

// TestConcurrentRender backs the doc's claim that renders may run in
// parallel (run with -race): same bytes as a serial render.
func TestConcurrentRender(t *testing.T) {
	f := sampleFigure(300, 600, 400)
	want := render(t, func(b *bytes.Buffer) error { return RenderPNG(b, f) })
	var wg sync.WaitGroup
	got := make([][]byte, 4)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var b bytes.Buffer
			if err := RenderPNG(&b, f); err != nil {
				t.Error(err)
			}
			got[i] = b.Bytes()
		}()
	}
	wg.Wait()
	for i, g := range got {
		if !bytes.Equal(g, want) {
			t.Errorf("render %d differs from the serial one", i)
		}
	}
}
