package target

// codexArgv runs `codex exec --json`: the prompt is its last argument.
func codexArgv(t *Target, req Request) []string {
	bin := t.Binary
	if bin == "" {
		bin = "codex"
	}
	argv := []string{bin, "exec", "--json"}
	if t.Model != "" {
		argv = append(argv, "--model", t.Model)
	}
	argv = append(argv, t.Args...)
	return append(argv, req.Input)
}
