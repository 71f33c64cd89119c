// Package headless starts headless Chromium for the tools and tests that
// drive it (wasmrun, the playground's browser tests).
//
// Chromium started beside other browsers on a loaded machine sometimes
// exits before it prints its DevTools address; chromedp reports that as
// "chrome failed to start". Start tries again, each time on a fresh
// allocator and context: a second start on the same context is what made
// chromedp panic with "close of closed channel".
package headless
