package gemini

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/sidefile"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/sniff"
)

// Sub-agents of Gemini CLI (0.37 and later; their calls name them from
// 0.39), in saved sessions:
//  1. A sub-agent (the codebase investigator, the generalist, or one the
//     user defined) has a chat of its own, recorded as a session of kind
//     "subagent" in chats/<session id>/<agent id>.jsonl beside the
//     session's file: the folder is named by the whole session id, the
//     file by the sub-agent's id, each with every character but letters,
//     digits, '_' and '-' written as '_', as the CLI names them. A
//     sub-agent that a sub-agent starts is in the same folder.
//  2. The call that started it (invoke_agent, or in earlier versions a tool
//     named by the agent) holds its id as agentId. The sub-agent's calls
//     are read from its file as steps of that agent, named by the call's
//     agent_name argument, else by the call's name; they come right after
//     the batch that holds the starting call, in the turn of that call, and
//     keep their own parallel groups.
//  3. A file is read once, and sub-agents are read no deeper than
//     maxSubagentDepth: a chain of sub-agents naming each other is not
//     followed round.
//  4. A file that cannot be read (missing, the session read from standard
//     input, a name that is no file's, a file that is not regular or is
//     outside the folder: see package sidefile) is reported, with the
//     sub-agent's name and id, and the trajectory is partial: the steps
//     of the session are kept, but the sub-agent's calls are missing. A
//     file read in part keeps what came before, also partial.
//  5. The file is read as the session is, though the session names it:
//     no further than the size it had when opened, a byte order mark at
//     its start dropped, every line UTF-8 (read leniently, the bad bytes
//     are U+FFFD, with one warning; strictly, the file is read in part)
//     and nested no deeper than jsonl.Each allows. Nesting too deep is
//     hostile, not damage: it is the read's error, read leniently or not.

// maxSubagentDepth bounds the chain of sub-agents followed (rule 3).
const maxSubagentDepth = 8

// side is what the files of one session's sub-agents share: the folder
// that holds them and the files already read.
type side struct {
	dir  string // the folder of the session's file, "" when read from no file
	read map[string]bool
}

func newSide(name string) *side {
	s := &side{read: map[string]bool{}}
	if name != "" && name != "<stdin>" && name != "-" {
		s.dir = filepath.Dir(name)
	}
	return s
}

// fileName is a session or agent id as the CLI writes it into a file
// name (its sanitizeFilenamePart).
func fileName(id string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9', r == '_', r == '-':
			return r
		}
		return '_'
	}, id)
}

// subagent returns the steps of the sub-agent that call started, read
// from its file, as steps of turn; groups is the session's last parallel
// group, moved on past the sub-agent's.
func (c *chat) subagent(ctx context.Context, call map[string]any, turn int, groups *int, line int) ([]trajeval.Step, error) {
	agentID, _ := call["agentId"].(string)
	if agentID == "" || c.side.read[agentID] {
		return nil, nil
	}
	c.side.read[agentID] = true
	agent := agentName(call)
	lost := func(format string, a ...any) ([]trajeval.Step, error) {
		c.partial = true
		c.warn(line, "agentId "+agentID, "%s; the calls of sub-agent %s are missing", fmt.Sprintf(format, a...), agent)
		return nil, nil
	}
	if c.depth >= maxSubagentDepth {
		return lost("sub-agents nested deeper than %d are not read", maxSubagentDepth)
	}
	if c.side.dir == "" {
		return lost("the session was not read from its file, so its sub-agents' files cannot be found")
	}
	session := c.rootSession()
	folder, file := fileName(session), fileName(agentID)
	if !sidefile.NameLike(folder) || !sidefile.NameLike(file) {
		return lost("session id %q and agentId %q name no sub-agent file", session, agentID)
	}
	dir := filepath.Join(c.side.dir, folder)
	path := filepath.Join(dir, file+".jsonl")
	f, err := sidefile.Open(c.side.dir, path)
	if errors.Is(err, fs.ErrNotExist) {
		return lost("no sub-agent file %s (a session copied without its folder?)", path)
	}
	if err != nil {
		return lost("cannot read the sub-agent file %s: %v", path, err)
	}
	defer f.Close()
	br := bufio.NewReader(f)
	sniff.DiscardBOM(br)
	sub := &chat{in: trajeval.Input{Name: path, Lenient: c.in.Lenient, Warn: c.in.Warn}, meta: map[string]any{},
		side: c.side, depth: c.depth + 1, strictUTF8: true}
	sub.root = session
	if err := sub.lines(ctx, br); err != nil {
		if de := (*jsonv.DepthError)(nil); errors.As(err, &de) {
			return nil, jsonl.TooDeep(path, err)
		}
		if ctx.Err() != nil {
			return nil, err
		}
		c.in.Warn(trajeval.Warning{File: path, Msg: "the sub-agent file could not be read whole: " + err.Error() + "; what came before is kept"})
		sub.partial = true
	}
	t, err := sub.build(ctx)
	if err != nil {
		return nil, err
	}
	sub.unknown.Report(sub.in, "gemini-chat")
	c.partial = c.partial || t.Partial
	last := 0
	for i := range t.Steps {
		s := &t.Steps[i]
		s.Turn = turn
		if s.Agent == "" {
			s.Agent = agent
		}
		if s.ParallelGroup > 0 {
			last = max(last, s.ParallelGroup)
			s.ParallelGroup += *groups
		}
	}
	*groups += last
	return t.Steps, nil
}

// rootSession returns the id of the session whose folder holds every
// sub-agent's file: a sub-agent's sub-agents are kept beside it, under the
// main session's id.
func (c *chat) rootSession() string {
	if c.root != "" {
		return c.root
	}
	s, _ := c.meta["sessionId"].(string)
	return s
}

// agentName names the sub-agent a call started: its agent_name argument
// (invoke_agent, delegate_to_agent), else the call's name (a tool named by
// the agent, as in earlier versions).
func agentName(call map[string]any) string {
	args, _ := call["args"].(map[string]any)
	if a, _ := args["agent_name"].(string); a != "" {
		return a
	}
	if n, _ := call["name"].(string); n != "" {
		return n
	}
	return "subagent"
}

// checkUTF8 checks that line n is UTF-8 (rule 5): an error placed at the
// first bad byte, or read leniently one warning for the file.
func (c *chat) checkUTF8(line []byte, n int) error {
	i := sidefile.InvalidUTF8(line)
	if i < 0 {
		return nil
	}
	const msg = "invalid UTF-8: a trace is UTF-8 text"
	if !c.in.Lenient {
		return &trajeval.TraceError{File: c.in.Name, Line: n, Col: i + 1, Msg: msg, Err: trajeval.ErrCorruptTrace}
	}
	if !c.badUTF8 {
		c.in.Warn(trajeval.Warning{File: c.in.Name, Line: n, Col: i + 1, Msg: msg + "; read leniently as U+FFFD"})
	}
	c.badUTF8 = true
	return nil
}
