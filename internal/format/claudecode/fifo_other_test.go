//go:build !unix

package claudecode_test

import "errors"

func mkfifo(string) error { return errors.New("no named pipes") }
