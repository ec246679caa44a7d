package main

import (
	"context"
	"sync"

	"github.com/trajeval/trajeval/internal/history"
)

// viewCacheSize is the most aggregates a viewCache keeps.
const viewCacheSize = 64

// A viewCache keeps the aggregates the chart and flaky pages read, which
// read every case of up to 100 runs, so that a page drawn again (another
// evaluator picked, a reload) costs nothing. Its rules:
//  1. An entry is kept under the history's stamp ([history.DB.Stamp]):
//     when a run is added, deleted, or records cases, the stamp changes
//     and every entry is dropped.
//  2. It keeps at most viewCacheSize entries; past that, it is emptied.
//  3. An error is never kept.
type viewCache struct {
	mu      sync.Mutex
	stamp   string
	entries map[string]any
}

// get returns the value under key, computing it with f when it is not
// kept.
func (c *viewCache) get(ctx context.Context, h *history.DB, key string, f func() (any, error)) (any, error) {
	stamp, err := h.Stamp(ctx)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.stamp != stamp {
		c.stamp, c.entries = stamp, nil
	}
	v, ok := c.entries[key]
	c.mu.Unlock()
	if ok {
		return v, nil
	}
	v, err = f()
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stamp == stamp {
		if c.entries == nil || len(c.entries) >= viewCacheSize {
			c.entries = map[string]any{}
		}
		c.entries[key] = v
	}
	return v, nil
}
