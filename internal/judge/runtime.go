package judge

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/trajeval/trajeval/internal/secret"
)

// A Runtime holds what every judge of a run shares: the cache, the bound
// on concurrent requests, the rate limits per endpoint, and the first
// judged evaluator that has no judge to ask. Its zero value is ready: real
// environment, real clock, the default cache folder, 4 workers.
type Runtime struct {
	Getenv   func(string) string // nil: os.Getenv
	CacheDir string              // "": DefaultCacheDir()
	NoCache  bool
	Workers  int // concurrent judge requests (default 4)
	// HTTP sends the requests; nil is a client without its own timeout.
	// Its CheckRedirect is replaced by one that refuses a redirect to
	// another host (see secret.KeepHost): the key goes nowhere else.
	HTTP *http.Client
	// Sleep waits d or until ctx ends; nil is the real clock. Tests
	// replace it to record waits without spending them.
	Sleep   func(ctx context.Context, d time.Duration) error
	Backoff time.Duration // first retry's wait before jitter (default 500ms)
	MaxWait time.Duration // the longest single wait, Retry-After included (default 60s)

	once     sync.Once
	http     *http.Client
	sem      chan struct{}
	mu       sync.Mutex
	clients  map[string]*Client
	limiters map[string]*limiter
	cache    *Cache
	cacheErr error
	missing  error
}

// DefaultCacheDir is the judge cache under the user's cache folder.
func DefaultCacheDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return d + string(os.PathSeparator) + "trajeval" + string(os.PathSeparator) + "judge", nil
}

func (rt *Runtime) init() {
	rt.once.Do(func() {
		n := rt.Workers
		if n <= 0 {
			n = 4
		}
		rt.sem = make(chan struct{}, n)
		rt.http = &http.Client{}
		if rt.HTTP != nil {
			*rt.http = *rt.HTTP
		}
		rt.http.CheckRedirect = secret.KeepHost
		rt.clients = map[string]*Client{}
		rt.limiters = map[string]*limiter{}
		if rt.NoCache {
			return
		}
		dir := rt.CacheDir
		if dir == "" {
			dir, rt.cacheErr = DefaultCacheDir()
		}
		if rt.cacheErr == nil {
			rt.cache = &Cache{Dir: dir}
		}
	})
}

func (rt *Runtime) getenv(k string) string {
	if rt == nil || rt.Getenv == nil {
		return os.Getenv(k)
	}
	return rt.Getenv(k)
}

// Settings resolves the settings of one evaluator's judge (see [Resolve])
// in the runtime's environment.
func (rt *Runtime) Settings(blocks ...Block) Settings {
	return Resolve(rt.getenv, blocks...)
}

// Judge returns the judge for s, or why s cannot reach one.
func (rt *Runtime) Judge(s Settings) (*Judge, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	rt.init()
	rt.mu.Lock()
	defer rt.mu.Unlock()
	key := fmt.Sprintf("%#v", s)
	c, ok := rt.clients[key]
	if !ok {
		l, ok := rt.limiters[s.Endpoint()]
		if !ok || l.every == 0 {
			l = newLimiter(s.RequestsPerMinute)
			rt.limiters[s.Endpoint()] = l
		}
		c = &Client{s: s, rt: rt, limit: l, scrub: secret.NewScrubber(append(secret.URLSecrets(s.BaseURL), s.APIKey)...)}
		rt.clients[key] = c
	}
	return &Judge{Client: c, Cache: rt.cache, Settings: s}, nil
}

// NoteMissing keeps err as the reason a judged evaluator has no judge
// (see [Runtime.Err]); the first one noted wins.
func (rt *Runtime) NoteMissing(err error) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.missing == nil {
		rt.missing = err
	}
}

// Err returns the first reason a judged evaluator has no judge, or nil:
// the command checks it after loading, before any case runs.
func (rt *Runtime) Err() error {
	if rt == nil {
		return nil
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.missing
}

// CacheErr says why answers are not (all) cached although caching is on:
// the cache folder is unknown, or an entry could not be written.
func (rt *Runtime) CacheErr() error {
	rt.init()
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.cacheErr
}

func (rt *Runtime) notePut(err error) {
	if err == nil {
		return
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.cacheErr == nil {
		rt.cacheErr = err
	}
}

func (rt *Runtime) acquire(ctx context.Context) (func(), error) {
	rt.init()
	select {
	case rt.sem <- struct{}{}:
		return func() { <-rt.sem }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (rt *Runtime) httpClient() *http.Client {
	rt.init()
	return rt.http
}

func (rt *Runtime) sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	if rt.Sleep != nil {
		return rt.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (rt *Runtime) backoff(attempt int) time.Duration {
	b := rt.Backoff
	if b <= 0 {
		b = 500 * time.Millisecond
	}
	return fullJitter(b, attempt, 30*time.Second)
}

func (rt *Runtime) maxWait() time.Duration {
	if rt.MaxWait > 0 {
		return rt.MaxWait
	}
	return 60 * time.Second
}

// A limiter spaces requests at least every apart.
type limiter struct {
	every time.Duration
	mu    sync.Mutex
	next  time.Time
}

func newLimiter(perMinute float64) *limiter {
	l := &limiter{}
	if perMinute > 0 {
		l.every = time.Duration(float64(time.Minute) / perMinute)
	}
	return l
}

// wait blocks until the next request may go.
func (l *limiter) wait(ctx context.Context, sleep func(context.Context, time.Duration) error) error {
	if l.every == 0 {
		return ctx.Err()
	}
	l.mu.Lock()
	now := time.Now()
	at := l.next
	if at.Before(now) {
		at = now
	}
	l.next = at.Add(l.every)
	l.mu.Unlock()
	return sleep(ctx, at.Sub(now))
}

// A Handle is an evaluator's judge, or the reason it has none.
type Handle struct {
	Judge *Judge
	Err   error // why Judge is nil
}

// Get returns the judge or the reason there is none.
func (h Handle) Get() (*Judge, error) {
	if h.Judge == nil {
		if h.Err == nil {
			return nil, fmt.Errorf("%w: this run has no judge", ErrNoJudge)
		}
		return nil, h.Err
	}
	return h.Judge, nil
}

// Each calls fn(i) for i in [0, n) at once, each in its own goroutine, and
// returns the first error by index. The run's worker bound still limits
// the requests in flight; Each only lets independent judge calls of one
// evaluator (one per tool, one per invocation) wait on it together.
func Each(n int, fn func(i int) error) error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = fn(i)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
