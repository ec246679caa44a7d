package history

import (
	"os"
	"time"
)

// HeartbeatEvery is how often a run's recorder writes its heartbeat when
// no result was written meanwhile (each write of results beats too).
const HeartbeatEvery = 20 * time.Second

// heartbeatEvery is HeartbeatEvery, but for the tests.
var heartbeatEvery = HeartbeatEvery

// HeartbeatLive is how recent a run's heartbeat must be for a run
// recorded on another host to count as running.
const HeartbeatLive = time.Minute

// live reports whether run r, which has no end, is still under way:
//  1. recorded on this host by a process that this host can check: the
//     process still exists;
//  2. else (recorded on another host, or before schema version 2 gave
//     runs their host and process): its heartbeat is less than
//     HeartbeatLive before now.
//
// A process id the system gave to another process since the run was
// killed reads as the run still running: rare, and only on the host
// that ran it.
func (r Run) live(now time.Time, host string) bool {
	if r.PID > 0 && r.Host != "" && r.Host == host {
		if alive, known := processAlive(r.PID); known {
			return alive
		}
	}
	return !r.Heartbeat.IsZero() && now.Sub(r.Heartbeat) < HeartbeatLive
}

// hostname is this host's name, "" when the system does not say.
func hostname() string {
	h, _ := os.Hostname()
	return h
}
