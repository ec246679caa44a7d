// Package historytest starts a throwaway PostgreSQL server for the tests
// of the run history.
//
// Its rules:
//  1. The server is Debian's postgresql package: the binaries of the
//     newest /usr/lib/postgresql/*/bin, else initdb and postgres on PATH.
//  2. It runs in a fresh folder under the temporary folder, on a free
//     loopback port, with trust authentication, until [Server.Stop].
//  3. PostgreSQL refuses to run as root: as root, the server runs as the
//     user postgres (or nobody), which owns its folder.
package historytest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver
)

// ErrNoPostgres says the PostgreSQL binaries are not installed.
var ErrNoPostgres = errors.New("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb, no initdb on PATH): apt-get install postgresql")

// A Server is a running PostgreSQL server.
type Server struct {
	dir    string
	port   int
	cmd    *exec.Cmd
	log    string
	n      int
	exited chan struct{} // closed when the server has exited
}

// binDir returns the folder of initdb and postgres.
func binDir() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(dirs, func(a, b string) int { return version(b) - version(a) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p), nil
	}
	return "", ErrNoPostgres
}

func version(dir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
	return n
}

// Start starts a server (see the package's rules).
func Start() (*Server, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "trajeval-postgres-")
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir, log: filepath.Join(dir, "log")}
	var cred *syscall.Credential
	if os.Getuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			u, err = user.Lookup("nobody")
		}
		if err != nil {
			return nil, fmt.Errorf("running as root, and no user postgres or nobody to run PostgreSQL as: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		if err := os.Chown(dir, uid, gid); err != nil {
			return nil, err
		}
	}
	run := func(name string, args ...string) *exec.Cmd {
		c := exec.Command(filepath.Join(bin, name), args...)
		c.Dir = dir
		c.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Setpgid: true}
		return c
	}
	data := filepath.Join(dir, "data")
	if out, err := run("initdb", "-D", data, "-U", "trajeval", "--auth=trust", "-E", "UTF8", "--no-sync").CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s.port = l.Addr().(*net.TCPAddr).Port
	l.Close()
	logf, err := os.Create(s.log)
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	s.cmd = run("postgres", "-D", data, "-p", strconv.Itoa(s.port), "-k", dir,
		"-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "max_connections=100")
	s.cmd.Stdout, s.cmd.Stderr = logf, logf
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	s.exited = make(chan struct{})
	go func() { s.cmd.Wait(); close(s.exited) }()
	deadline := time.Now().Add(60 * time.Second)
	for {
		db, err := sql.Open("pgx", s.DSN("postgres"))
		if err == nil {
			err = db.Ping()
			db.Close()
		}
		if err == nil {
			return s, nil
		}
		select {
		case <-s.exited:
			deadline = time.Now()
		default:
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(s.log)
			s.Stop()
			return nil, fmt.Errorf("postgres did not start: %v\n%s", err, log)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// DSN is the URL of database name on the server.
func (s *Server) DSN(name string) string {
	return fmt.Sprintf("postgres://trajeval@127.0.0.1:%d/%s?sslmode=disable", s.port, name)
}

// NewDB creates an empty database and returns its URL.
func (s *Server) NewDB(ctx context.Context) (string, error) {
	s.n++
	name := "t" + strconv.Itoa(s.n) + "_" + strings.ReplaceAll(strconv.FormatInt(time.Now().UnixNano(), 36), "-", "")
	db, err := sql.Open("pgx", s.DSN("postgres"))
	if err != nil {
		return "", err
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		return "", err
	}
	return s.DSN(name), nil
}

// Stop stops the server (fast shutdown) and removes its folder.
func (s *Server) Stop() {
	if s.exited != nil {
		s.cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-s.exited:
		case <-time.After(30 * time.Second):
			s.cmd.Process.Kill()
			<-s.exited
		}
	}
	os.RemoveAll(s.dir)
}
