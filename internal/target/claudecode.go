package target

// claudeArgv runs `claude -p` with its stream of JSON events on standard
// output; --verbose is required with stream-json in print mode.
func claudeArgv(t *Target, req Request) []string {
	bin := t.Binary
	if bin == "" {
		bin = "claude"
	}
	argv := []string{bin, "-p", "--output-format", "stream-json", "--verbose"}
	if t.Model != "" {
		argv = append(argv, "--model", t.Model)
	}
	argv = append(argv, t.Args...)
	return append(argv, req.Input)
}
