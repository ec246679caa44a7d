package distro_test

import (
	"bytes"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/trajeval/trajeval/otelcol/internal/otelcoltest"
)

// A process is one Collector run as its own program, otelcol-trajeval, as
// it runs in production: its configuration from testdata, its ${env:NAME}
// references from its environment.
type process struct {
	t    *testing.T
	name string
	cmd  *exec.Cmd
	log  *lockedBuffer
	done chan error
}

// lockedBuffer is the process's standard error, written by exec's copier
// while the test may read it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// buildCollector builds cmd/otelcol-trajeval once, into a directory of the
// test's.
func buildCollector(t *testing.T) string {
	t.Helper()
	exe := filepath.Join(t.TempDir(), "otelcol-trajeval")
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(gobin); err != nil {
		gobin = "go"
	}
	out, err := exec.Command(gobin, "build", "-o", exe, "./cmd/otelcol-trajeval").CombinedOutput()
	if err != nil {
		t.Fatalf("go build ./cmd/otelcol-trajeval: %v\n%s", err, out)
	}
	return exe
}

// startProcess runs the Collector of testdata/<config>.yaml and waits until
// it listens on addr. The test's cleanup stops it if the test has not.
func startProcess(t *testing.T, exe, name, config, addr string, env map[string]string) *process {
	t.Helper()
	p := &process{t: t, name: name, log: &lockedBuffer{}, done: make(chan error, 1)}
	p.cmd = exec.Command(exe, "--config", filepath.Join("testdata", config+".yaml"))
	p.cmd.Env = os.Environ()
	for k, v := range env {
		p.cmd.Env = append(p.cmd.Env, k+"="+v)
	}
	p.cmd.Stdout, p.cmd.Stderr = p.log, p.log
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(func() {
		if p.cmd != nil {
			p.cmd.Process.Kill()
			<-p.done
		}
	})
	deadline := time.Now().Add(patience)
	for {
		select {
		case err := <-p.done:
			p.cmd = nil
			t.Fatalf("%s stopped while starting: %v\n%s", name, err, p.log)
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			return p
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not listen on %s in %v:\n%s", name, addr, patience, p.log)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stop asks the Collector to shut down, as a service manager does (a
// scorer scores what it holds first), and waits until it has exited,
// killing it after patience.
func (p *process) stop() {
	p.t.Helper()
	if p.cmd == nil {
		return
	}
	if err := p.cmd.Process.Signal(os.Interrupt); err != nil {
		p.t.Errorf("%s: %v", p.name, err)
	}
	var err error
	select {
	case err = <-p.done:
	case <-time.After(patience):
		p.cmd.Process.Kill()
		err = errors.Join(errors.New("did not stop when interrupted; killed"), <-p.done)
	}
	p.cmd = nil
	if err != nil {
		p.t.Errorf("%s: %v\n%s", p.name, err, p.log)
	}
}

// TestScaleOut_processes is TestScaleOut with each Collector a process of
// its own, the built otelcol-trajeval, talking over loopback: a front with
// the loadbalancing exporter and two scorers. Every trace sent to the
// front must be scored exactly once, with the scores trajeval eval gives,
// and both scorers must take a share.
func TestScaleOut_processes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the Collector and starts three processes")
	}
	if runtime.GOOS == "windows" {
		t.Skip("stops the Collectors with an interrupt, which Windows cannot send")
	}
	exe := buildCollector(t)
	abs, err := filepath.Abs(policy)
	if err != nil {
		t.Fatal(err)
	}
	tr := &tier{sink: newSink(t)}
	var scorers [2]*process
	var addrs [2]string
	for i := range scorers {
		addrs[i] = otelcoltest.FreeAddr(t)
		name := string(rune('1' + i))
		scorers[i] = startProcess(t, exe, "scorer "+name, "scorer", addrs[i], map[string]string{
			"SCORER_ENDPOINT": addrs[i], "TRAJEVAL_POLICY": abs, "RESULTS_ENDPOINT": tr.sink.endpoint(name)})
	}
	front := otelcoltest.FreeAddr(t)
	fp := startProcess(t, exe, "front", "front", front, map[string]string{
		"FRONT_ENDPOINT": front, "QUEUE_DIR": t.TempDir(), "SCORER_1": addrs[0], "SCORER_2": addrs[1]})
	tr.url = "http://" + front + "/v1/traces"

	ids, want := tr.send(t, 1)
	tr.sink.waitFor(t, ids)
	fp.stop()
	scorers[0].stop()
	scorers[1].stop()
	tr.check(t, ids, want, "1", "2")
}
