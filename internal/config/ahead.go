package config

import (
	"runtime"
	"sync"
)

// aheadParts bounds the parts of a list converted and not yet walked by
// Node.Each, so that a walk holds at most this many parts' nodes more
// than one at a time.
const aheadParts = 3

// partsAhead converts the parts of a lazy list on other goroutines while
// Node.Each walks the ones before: converting a part (the one-line reader)
// is about two thirds of loading a long list of cases, and on a single
// goroutine it runs before the first trace is read, with the other cores
// idle.
//
// The parts are converted in the list's order, by at most GOMAXPROCS
// goroutines each with a scratch space of its own, and taken in that
// order, so that the items Each walks are the ones it converted one part
// at a time: a part's conversion is a function of the document alone.
type partsAhead struct {
	l     *lazyList
	file  string
	parts [][2]int // the items [i, j) of each part but the last
	done  []chan convertedPart
	slots chan struct{} // a token for each part converted or being converted, not yet taken
	quit  chan struct{}
	mu    sync.Mutex
	next  int // the next part to convert
	wg    sync.WaitGroup
	once  sync.Once
}

// convertedPart is the result of lazyList.convert for one part.
type convertedPart struct {
	p  part
	ok bool
}

// ahead starts converting the parts of l but the last, which ParseList
// converted; nil when there is at most one.
func (l *lazyList) ahead(file string) *partsAhead {
	sp := &l.split
	var parts [][2]int
	for i := 0; i < len(sp.items); {
		j := sp.part(i)
		if j < len(sp.items) {
			parts = append(parts, [2]int{i, j})
		}
		i = j
	}
	if len(parts) < 2 {
		return nil
	}
	a := &partsAhead{l: l, file: file, parts: parts, done: make([]chan convertedPart, len(parts)),
		slots: make(chan struct{}, aheadParts), quit: make(chan struct{})}
	for p := range a.done {
		a.done[p] = make(chan convertedPart, 1)
	}
	workers := min(runtime.GOMAXPROCS(0), len(parts), aheadParts)
	a.wg.Add(workers)
	for range workers {
		go a.work()
	}
	return a
}

// work converts parts in turn until there are none left or the walk has
// stopped.
func (a *partsAhead) work() {
	defer a.wg.Done()
	var scratch flowPart
	for {
		select {
		case a.slots <- struct{}{}:
		case <-a.quit:
			return
		}
		a.mu.Lock()
		p := a.next
		a.next++
		a.mu.Unlock()
		if p >= len(a.parts) {
			return
		}
		converted, ok := a.l.convertWith(&scratch, a.file, a.parts[p][0], a.parts[p][1])
		a.done[p] <- convertedPart{converted, ok}
	}
}

// take returns the conversion of part p.
func (a *partsAhead) take(p int) (part, bool) {
	c := <-a.done[p]
	<-a.slots
	return c.p, c.ok
}

// stop ends the conversions and waits for the goroutines to return.
func (a *partsAhead) stop() {
	if a == nil {
		return
	}
	a.once.Do(func() {
		close(a.quit)
		a.wg.Wait()
	})
}
