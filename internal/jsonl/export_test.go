package jsonl

// SetMaxLine makes MaxLine n for a test, and returns what restores it.
func SetMaxLine(n int) (restore func()) {
	old := maxLine
	maxLine = n
	return func() { maxLine = old }
}
