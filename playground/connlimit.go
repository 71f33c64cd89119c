//go:build !js

package playground

import (
	"net"
	"net/http"
	"slices"
	"sync"
)

// connLimit is a net.Listener that serves at most limit accepted
// connections at once, so that a room of browsers keeping sockets open
// cannot use up the process's file descriptors (with none left, Accept
// fails and new visitors time out).
//
// When all limit are open, a new connection takes the slot of the one
// idle longest, which is closed. Idle means waiting for a request, as the
// http.Server reports through ConnState (set it to connState): accepted
// but no request yet (StateNew: a browser's spare connection, or one that
// sends nothing), or between keep-alive requests (StateIdle). Such
// connections are kept only in case the browser asks for something more,
// so a new visitor is served at once, at the cost of a reconnection for
// an old one. A plain cap would leave the newcomer waiting behind them,
// up to IdleTimeout (ReadHeaderTimeout for silent ones), and a flood of
// silent connections would hold every slot in turn.
//
// With none idle, Accept waits for a connection to close or go idle
// before accepting; until then new connections wait in the kernel's
// listen queue, holding no descriptor of this process. Only if every idle
// connection became busy while Accept waited for a newcomer does Accept
// hold that newcomer, one descriptor over limit, until a slot frees.
//
// Closing an idle connection races with a request arriving on it, as
// http.Server's own IdleTimeout and Shutdown do: that request fails before
// any byte of the answer, and browsers and Go's client send it again on a
// new connection.
//
// Safe for concurrent use.
type connLimit struct {
	net.Listener
	limit int

	mu   sync.Mutex
	open int            // connections holding a slot
	idle []*limitedConn // the idle ones, longest idle first

	// wake is told, without blocking (one pending signal is enough), that
	// a slot freed or a connection went idle; done is closed by Close.
	wake      chan struct{}
	done      chan struct{}
	closeOnce sync.Once
}

// limitConns returns ln serving at most limit connections at once
// (limit >= 1).
func limitConns(ln net.Listener, limit int) *connLimit {
	return &connLimit{Listener: ln, limit: limit, wake: make(chan struct{}, 1), done: make(chan struct{})}
}

// Accept waits until a slot is free or a connection is idle, accepts the
// next connection and gives it a slot, closing the connection idle
// longest if no slot is free.
func (l *connLimit) Accept() (net.Conn, error) {
	if err := l.await(func() bool { return l.open < l.limit || len(l.idle) > 0 }); err != nil {
		return nil, err
	}
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	var victim net.Conn
	if err := l.await(func() (ok bool) { ok, victim = l.take(); return ok }); err != nil {
		c.Close()
		return nil, err
	}
	if victim != nil {
		victim.Close()
	}
	return &limitedConn{Conn: c, l: l}, nil
}

// await waits until ok, called with l.mu held, is true, or l is closed.
func (l *connLimit) await(ok func() bool) error {
	for {
		l.mu.Lock()
		done := ok()
		l.mu.Unlock()
		if done {
			l.signal() // another Accept may be waiting: pass the news on
			return nil
		}
		select {
		case <-l.wake:
		case <-l.done:
			return net.ErrClosed
		}
	}
}

// take takes a slot for a connection just accepted, with l.mu held: a free
// one, or that of the connection idle longest, victim, which the caller
// must close.
func (l *connLimit) take() (ok bool, victim net.Conn) {
	if l.open < l.limit {
		l.open++
		return true, nil
	}
	if len(l.idle) == 0 {
		return false, nil
	}
	v := l.idle[0]
	l.idle = l.idle[1:]
	v.closed = true // its slot is the newcomer's: its Close frees nothing
	return true, v.Conn
}

// release frees c's slot, once.
func (l *connLimit) release(c *limitedConn) {
	l.mu.Lock()
	if c.closed {
		l.mu.Unlock()
		return
	}
	c.closed = true
	l.open--
	l.idle = slices.DeleteFunc(l.idle, func(x *limitedConn) bool { return x == c })
	l.mu.Unlock()
	l.signal()
}

func (l *connLimit) signal() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// connState is the http.Server's ConnState hook: it keeps the list of idle
// connections (new or between requests) in the order they went idle.
func (l *connLimit) connState(nc net.Conn, s http.ConnState) {
	c, ok := nc.(*limitedConn)
	if !ok {
		return
	}
	l.mu.Lock()
	l.idle = slices.DeleteFunc(l.idle, func(x *limitedConn) bool { return x == c })
	wentIdle := (s == http.StateNew || s == http.StateIdle) && !c.closed
	if wentIdle {
		l.idle = append(l.idle, c)
	}
	l.mu.Unlock()
	if wentIdle {
		l.signal()
	}
}

// Close closes the listener; an Accept waiting for a slot returns
// net.ErrClosed. Accepted connections stay open.
func (l *connLimit) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// limitedConn is a connection connLimit accepted: closing it frees its
// slot.
type limitedConn struct {
	net.Conn
	l      *connLimit
	closed bool // its slot is freed or taken over; guarded by l.mu
}

// Close closes the connection and frees its slot.
func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.l.release(c)
	return err
}
