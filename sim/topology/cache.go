package topology

import (
	"time"

	"github.com/ressim/ressim/sim/dist"
)

// cache is a look-aside cache in front of a service (see CacheConfig).
type cache struct {
	keys     int
	capacity int // keys held when warm: HitRatio * Keys
	filled   int
	latency  dist.Dist
	hasLat   bool
	rng      *dist.Source
	hits     uint64
	misses   uint64
	flushes  int
}

func newCache(m *Model, s *service, cfg *CacheConfig) *cache {
	capacity := int(cfg.HitRatio*float64(cfg.Keys) + 0.5)
	return &cache{
		keys:     cfg.Keys,
		capacity: capacity,
		filled:   capacity,
		latency:  cfg.Latency,
		hasLat:   cfg.Latency.Kind() != 0,
		rng:      m.source("cache/" + s.cfg.Name),
	}
}

// lookup decides a hit or a miss and the lookup's latency.
func (c *cache) lookup() (hit bool, lat time.Duration) {
	hit = c.rng.Float64()*float64(c.keys) < float64(c.filled)
	if hit {
		c.hits++
	} else {
		c.misses++
	}
	if c.hasLat {
		lat = c.latency.DrawFrom(c.rng)
	}
	return hit, lat
}

// fill stores the key a successful miss fetched.
func (c *cache) fill() {
	if c.filled < c.capacity {
		c.filled++
	}
}

// hitRatio is the current probability of a hit.
func (c *cache) hitRatio() float64 { return float64(c.filled) / float64(c.keys) }

func (c *cache) flush() {
	c.filled = 0
	c.flushes++
}
