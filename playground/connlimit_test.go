//go:build !js

package playground

import (
	"errors"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"testing/synctest"
)

// fakeListener hands out the connections sent on conns and counts the
// calls to Accept: whether connLimit accepted at all.
type fakeListener struct {
	conns   chan net.Conn
	accepts atomic.Int32
}

func newFakeListener(n int) *fakeListener {
	f := &fakeListener{conns: make(chan net.Conn, n)}
	for range n {
		f.conns <- &fakeConn{}
	}
	return f
}

func (f *fakeListener) Accept() (net.Conn, error) {
	f.accepts.Add(1)
	return <-f.conns, nil
}

func (f *fakeListener) Close() error   { return nil }
func (f *fakeListener) Addr() net.Addr { return nil }

// fakeConn is a connection that only knows whether it was closed.
type fakeConn struct {
	net.Conn
	closed atomic.Bool
}

func (c *fakeConn) Close() error { c.closed.Store(true); return nil }

func isClosed(c net.Conn) bool { return c.(*limitedConn).Conn.(*fakeConn).closed.Load() }

// goAccept calls l.Accept on a new goroutine; its answer comes on the
// channel returned.
func goAccept(l *connLimit) <-chan net.Conn {
	ch := make(chan net.Conn, 1)
	go func() {
		c, err := l.Accept()
		if err != nil {
			c = nil
		}
		ch <- c
	}()
	return ch
}

func mustAccept(t *testing.T, l *connLimit) net.Conn {
	t.Helper()
	c, err := l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestServeCapWaits: with every slot held by a busy connection, Accept
// does not even accept (the newcomer stays in the kernel's queue, holding
// no descriptor) until one of them closes; then it does.
func TestServeCapWaits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeListener(3)
		l := limitConns(f, 2)
		a, _ := mustAccept(t, l), mustAccept(t, l)
		got := goAccept(l)
		synctest.Wait() // Accept is blocked, or has returned
		if len(got) != 0 || f.accepts.Load() != 2 {
			t.Fatalf("accepted a third connection over a limit of 2 (%d calls to Accept)", f.accepts.Load())
		}
		a.Close()
		if c := <-got; c == nil {
			t.Fatal("Accept failed after a slot freed")
		}
	})
}

// TestServeCapClosesOldestIdle: at the limit, a newcomer takes the slot
// of the connection idle longest, which is closed; a connection that went
// busy again is not idle; and a connection going idle wakes an Accept
// waiting for a slot.
func TestServeCapClosesOldestIdle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeListener(4)
		l := limitConns(f, 2)
		a, b := mustAccept(t, l), mustAccept(t, l)
		l.connState(b, http.StateIdle)
		l.connState(a, http.StateIdle) // b has been idle longer
		c := mustAccept(t, l)
		if !isClosed(b) || isClosed(a) {
			t.Fatalf("closed a: %v, b: %v; want b, the one idle longest, alone", isClosed(a), isClosed(b))
		}
		l.connState(b, http.StateIdle) // the server's late news of b, closed: ignored
		l.connState(a, http.StateActive)
		got := goAccept(l)
		synctest.Wait()
		if len(got) != 0 || f.accepts.Load() != 3 {
			t.Fatalf("accepted with a and c busy (%d calls to Accept)", f.accepts.Load())
		}
		l.connState(c, http.StateIdle)
		if d := <-got; d == nil || !isClosed(c) || isClosed(a) {
			t.Fatalf("after c went idle: accepted %v, closed a: %v, c: %v; want c closed for the newcomer", d != nil, isClosed(a), isClosed(c))
		}
	})
}

// TestServeCapListenerClose: closing the listener ends an Accept waiting for a
// slot with net.ErrClosed.
func TestServeCapListenerClose(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := limitConns(newFakeListener(2), 1)
		mustAccept(t, l)
		errc := make(chan error, 1)
		go func() { _, err := l.Accept(); errc <- err }()
		synctest.Wait()
		l.Close()
		if err := <-errc; !errors.Is(err, net.ErrClosed) {
			t.Fatalf("Accept after Close: %v, want net.ErrClosed", err)
		}
	})
}
