//go:build !unix

package sidefile_test

import "errors"

func mkfifo(string) error { return errors.New("no named pipes") }
