// Package binned fits service-time distributions to binned (histogram)
// latency data by maximum likelihood.
package binned
