package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// signalContext returns a context that the first SIGINT or SIGTERM
// cancels: the command stops simulating and writes what finished. A
// second signal exits at once with exitFailure; the output folder then
// keeps its previous set (outputs are committed whole), and the next run
// into the same parent removes the staging folder left behind.
func signalContext(parent context.Context, stderr io.Writer) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			fmt.Fprintf(stderr, "\nressim: %v: stopping, keeping what finished (a second signal stops at once)\n", s)
			cancel()
		case <-done:
			return
		}
		select {
		case <-ch:
			fmt.Fprintln(stderr, "ressim: stopped at once; the output folder keeps its previous set")
			os.Exit(exitFailure)
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel()
	}
}
