package target

import (
	"slices"
	"strconv"
	"strings"
)

// Placeholders are what a cli target's command may name; each is replaced
// by its value for the run:
//
//	{PROMPT}       the case's input, as text
//	{PROMPT_FILE}  a file holding the case's input
//	{OUTPUT_FILE}  the file the command writes its trace to; when the
//	               command names it, standard output is not read
//	{EVAL_ID}      the case's id
//	{ATTEMPT}      the trial, from 1
//
// In a command line (a string, run by /bin/sh -c) a value is quoted for
// the shell when it holds anything but letters, digits and -_./:=+,@%, so
// write {PROMPT}, not "{PROMPT}". In a list of arguments each value is
// put in as it is.
var Placeholders = []string{"{PROMPT}", "{PROMPT_FILE}", "{OUTPUT_FILE}", "{EVAL_ID}", "{ATTEMPT}"}

// runFiles are the files of one run, in its own temporary folder.
type runFiles struct {
	prompt, output string
}

// cliArgv returns the arguments of a cli target's run, and whether the
// command names {OUTPUT_FILE}.
func cliArgv(t *Target, req Request, f runFiles) ([]string, bool) {
	values := map[string]string{
		"{PROMPT}":      req.Input,
		"{PROMPT_FILE}": f.prompt,
		"{OUTPUT_FILE}": f.output,
		"{EVAL_ID}":     req.CaseID,
		"{ATTEMPT}":     strconv.Itoa(req.Attempt),
	}
	if t.Argv != nil {
		argv := make([]string, len(t.Argv))
		uses := false
		for i, a := range t.Argv {
			uses = uses || strings.Contains(a, "{OUTPUT_FILE}")
			argv[i] = expand(a, values, func(s string) string { return s })
		}
		return argv, uses
	}
	return []string{"/bin/sh", "-c", expand(t.Shell, values, shellQuote)}, strings.Contains(t.Shell, "{OUTPUT_FILE}")
}

// expand replaces each placeholder of s by its value, passed through quote.
// Values are not scanned again: an input holding "{EVAL_ID}" stays as it
// is.
func expand(s string, values map[string]string, quote func(string) string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		s = s[i:]
		j := strings.IndexByte(s, '}')
		if j < 0 {
			b.WriteString(s)
			return b.String()
		}
		if v, ok := values[s[:j+1]]; ok {
			b.WriteString(quote(v))
		} else {
			b.WriteString(s[:j+1])
		}
		s = s[j+1:]
	}
}

// shellQuote quotes s for /bin/sh when it holds anything but safe
// characters.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=+,@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// UnknownPlaceholders returns the {NAME} words of command that are not
// placeholders, for the loader to report: a misspelt placeholder would
// otherwise reach the command as it is. Shell code such as ${HOME} or
// {a,b} is left alone.
func UnknownPlaceholders(command string) []string {
	var out []string
	for i := 0; i < len(command); i++ {
		if command[i] != '{' || (i > 0 && command[i-1] == '$') {
			continue
		}
		j := strings.IndexByte(command[i:], '}')
		if j < 0 {
			break
		}
		word := command[i : i+j+1]
		if isPlaceholderShape(word) && !slices.Contains(Placeholders, word) {
			out = append(out, word)
		}
	}
	return out
}

// isPlaceholderShape reports whether w is {UPPER_CASE}: shell code such
// as ${HOME} or {a,b} is left alone.
func isPlaceholderShape(w string) bool {
	inner := w[1 : len(w)-1]
	if inner == "" {
		return false
	}
	for _, r := range inner {
		if !(r >= 'A' && r <= 'Z' || r == '_' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
