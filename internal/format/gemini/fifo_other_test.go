//go:build !unix

package gemini_test

import "errors"

func mkfifo(string) error { return errors.New("no named pipes") }
