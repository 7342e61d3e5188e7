// Package replay measures recorded agent trials: how many run calls each
// task took, how many characters of results the agent read back, and how
// many of those were discovery (help, listings, schema lookups). With a
// server it also replays each recorded program against this build of
// onetool and reports the same figures for today's results, side by side,
// so that a change's effect on what agents read is measured without a
// model. `onetool bench replay` is its command; docs/agents.md tells how
// to record a trial.
//
// A trial is JSON lines. The native form, one line per run call:
//
//	{"task": "t01", "code": "ot.help(query=\"file\")", "result": "file — Read…", "error": false}
//
// task, code and result are required strings (result is the text of the
// tool result as the agent received it, an error's text included); error
// (the result was an error) and tools (the ids of the tools the run
// called, when the recorder knows them) are optional; other keys are
// ignored. A line {"note": "…"} says something about the trial and is shown
// in the report. Blank lines are skipped.
//
// Read also takes, line by line, what recorders already write:
//   - MCP JSON-RPC messages, one per line (a client's or a proxy's
//     log): tools/call requests of the tool "run" paired with their
//     responses by id; each initialize request starts a new task;
//   - transcripts of Anthropic Messages API content, one message per
//     line (Claude Code's ~/.claude/projects/…/SESSION.jsonl): tool_use
//     blocks of a tool named "run" or "…__run" paired with their
//     tool_result; the task is the line's sessionId;
//   - onetool's output.stats_file: each "run" line is a call with its
//     bytes_out as result size (no text, so no --rerun), the "call"
//     lines before it its tools.
//
// Without a task id of their own, calls belong to a task named after the
// file: give one file per task.
package replay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// MaxLine bounds one line of a trial file: a longer one is an error, not
// an allocation without end.
const MaxLine = 16 << 20

// maxErrors is how many bad lines Read reports before it stops.
const maxErrors = 10

// ErrFormat is wrapped by every error about a trial file's content.
var ErrFormat = errors.New("not a trial file")

// Call is one run call of a task.
type Call struct {
	Code   string   // the program as sent; "" when the source has none
	Result string   // the result's text as received
	Error  bool     // the result was an error
	Tools  []string // tools the run called, when the source names them
	// Chars is the result's size in characters (Unicode code points): of
	// Result, or as the source gives it when it has no text (a stats
	// file's bytes).
	Chars int
	// Discovery is the call's kind by the discovery rule (IsDiscovery).
	Discovery bool
	// Line is the line of the source the call was read from.
	Line int
}

// Task is the calls of one task, in order.
type Task struct {
	ID    string
	Calls []*Call
}

// Trial is a recorded trial.
type Trial struct {
	Name  string   // the file's name
	Notes []string // the {"note": …} lines
	Tasks []*Task  // in the order of their first call
	// HasCode is false when some call has no program (a stats file):
	// such a trial cannot be rerun.
	HasCode bool
}

// NewCall makes a call from a program and its result, classified by the
// discovery rule.
func NewCall(code, result string, isError bool, tools []string) *Call {
	return &Call{Code: code, Result: result, Error: isError, Tools: tools,
		Chars: utf8.RuneCountInString(result), Discovery: IsDiscovery(code, tools)}
}

// builder gathers calls into tasks.
type builder struct {
	t      *Trial
	byID   map[string]*Task
	errs   []string
	fileID string // the task of calls that name none
	// JSON-RPC: requests waiting for their response, and the session.
	pending map[string]*Call
	session int
	// Messages transcripts: tool_use blocks waiting for their result.
	uses map[string]*Call
	// stats file: tools of calls since the last run line.
	statsTools []string
}

func (b *builder) add(task string, c *Call) {
	tk := b.byID[task]
	if tk == nil {
		tk = &Task{ID: task}
		b.byID[task] = tk
		b.t.Tasks = append(b.t.Tasks, tk)
	}
	tk.Calls = append(tk.Calls, c)
}

func (b *builder) errorf(line int, format string, args ...any) {
	b.errs = append(b.errs, fmt.Sprintf("%s:%d: %s", b.t.Name, line, fmt.Sprintf(format, args...)))
}

// Read reads a trial from r; name is the file's name, for messages and as
// the task of calls that name none.
func Read(r io.Reader, name string) (*Trial, error) {
	b := &builder{
		t:       &Trial{Name: name, HasCode: true},
		byID:    map[string]*Task{},
		fileID:  strings.TrimSuffix(filepath.Base(name), filepath.Ext(name)),
		pending: map[string]*Call{},
		uses:    map[string]*Call{},
	}
	br := bufio.NewReaderSize(r, 64<<10)
	for n := 1; ; n++ {
		line, err := readLine(br)
		if errors.Is(err, errLong) {
			b.errorf(n, "line longer than %d MiB; a trial file holds one JSON object per line", MaxLine>>20)
			break
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if len(bytes.TrimSpace(line)) > 0 {
			b.line(n, line)
		}
		if err != nil || len(b.errs) >= maxErrors {
			break
		}
	}
	if len(b.errs) == 0 && len(b.t.Tasks) == 0 {
		b.errs = append(b.errs, name+": no run calls found: expected one JSON object per line, "+
			`{"task": …, "code": …, "result": …} (see docs/agents.md)`)
	}
	if len(b.errs) > 0 {
		return nil, fmt.Errorf("%w:\n%s", ErrFormat, strings.Join(b.errs, "\n"))
	}
	return b.t, nil
}

var errLong = errors.New("line too long")

// readLine reads one line without its end, at most MaxLine bytes.
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		part, err := br.ReadSlice('\n')
		if len(line)+len(part) > MaxLine {
			return nil, errLong
		}
		line = append(line, part...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), err
	}
}

// line reads one line in whichever form it is.
func (b *builder) line(n int, data []byte) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		b.errorf(n, "not a JSON object: %v", err)
		return
	}
	switch {
	case obj["jsonrpc"] != nil:
		b.jsonrpc(n, data)
	case obj["message"] != nil && obj["type"] != nil:
		b.transcript(n, data)
	case obj["kind"] != nil && obj["bytes_out"] != nil:
		b.stats(n, data)
	case obj["code"] != nil || obj["task"] != nil || obj["result"] != nil:
		b.native(n, data)
	case obj["note"] != nil:
		var v struct {
			Note string `json:"note"`
		}
		if err := json.Unmarshal(data, &v); err != nil {
			b.errorf(n, "note: %v", err)
			return
		}
		b.t.Notes = append(b.t.Notes, v.Note)
	default:
		// Other lines of a log (a transcript's summaries, a stats
		// file's other kinds) carry no calls.
	}
}

func (b *builder) native(n int, data []byte) {
	var v struct {
		Task   *string  `json:"task"`
		Code   *string  `json:"code"`
		Result *string  `json:"result"`
		Error  bool     `json:"error"`
		Tools  []string `json:"tools"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		b.errorf(n, "%v", err)
		return
	}
	var missing []string
	for _, f := range []struct {
		name string
		v    *string
	}{{"task", v.Task}, {"code", v.Code}, {"result", v.Result}} {
		if f.v == nil {
			missing = append(missing, f.name)
		}
	}
	if len(missing) > 0 {
		b.errorf(n, "missing %s: each call needs task, code and result (strings)", strings.Join(missing, ", "))
		return
	}
	if *v.Task == "" {
		b.errorf(n, "task is empty: name the task the call belongs to")
		return
	}
	c := NewCall(*v.Code, *v.Result, v.Error, v.Tools)
	c.Line = n
	b.add(*v.Task, c)
}

// jsonrpc reads one MCP message.
func (b *builder) jsonrpc(n int, data []byte) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Name      string `json:"name"`
			Arguments struct {
				Command *string `json:"command"`
			} `json:"arguments"`
		} `json:"params"`
		Result *struct {
			Content []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
			IsError bool `json:"isError"`
		} `json:"result"`
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		b.errorf(n, "JSON-RPC message: %v", err)
		return
	}
	id := string(m.ID)
	switch {
	case m.Method == "initialize":
		b.session++
	case m.Method == "tools/call" && m.Params.Name == "run" && m.Params.Arguments.Command != nil:
		c := NewCall(*m.Params.Arguments.Command, "", false, nil)
		c.Line = n
		b.pending[id] = c
		task := b.fileID
		if b.session > 1 {
			task = fmt.Sprintf("%s/%d", b.fileID, b.session)
		}
		b.add(task, c)
	case m.Method == "" && b.pending[id] != nil:
		c := b.pending[id]
		delete(b.pending, id)
		switch {
		case m.Result != nil:
			var texts []string
			for _, ct := range m.Result.Content {
				if ct.Type == "text" {
					texts = append(texts, ct.Text)
				}
			}
			*c = *NewCall(c.Code, strings.Join(texts, "\n"), m.Result.IsError, nil)
		case m.Error != nil:
			*c = *NewCall(c.Code, m.Error.Message, true, nil)
		}
		c.Line = n
	}
}

// transcript reads one line of a Messages API transcript.
func (b *builder) transcript(n int, data []byte) {
	var m struct {
		SessionID string `json:"sessionId"`
		Message   struct {
			Content json.RawMessage `json:"content"`
		} `json:"message"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		b.errorf(n, "transcript line: %v", err)
		return
	}
	var blocks []struct {
		Type      string          `json:"type"`
		ID        string          `json:"id"`
		Name      string          `json:"name"`
		Input     json.RawMessage `json:"input"`
		ToolUseID string          `json:"tool_use_id"`
		Content   json.RawMessage `json:"content"`
		IsError   bool            `json:"is_error"`
	}
	if len(m.Message.Content) == 0 || m.Message.Content[0] != '[' {
		return // plain text: no tool calls
	}
	if err := json.Unmarshal(m.Message.Content, &blocks); err != nil {
		b.errorf(n, "transcript content: %v", err)
		return
	}
	task := m.SessionID
	if task == "" {
		task = b.fileID
	}
	for _, bl := range blocks {
		switch bl.Type {
		case "tool_use":
			if bl.Name != "run" && !strings.HasSuffix(bl.Name, "__run") {
				continue
			}
			var in struct {
				Command *string `json:"command"`
			}
			if json.Unmarshal(bl.Input, &in) != nil || in.Command == nil {
				continue
			}
			c := NewCall(*in.Command, "", false, nil)
			c.Line = n
			b.uses[bl.ID] = c
			b.add(task, c)
		case "tool_result":
			c := b.uses[bl.ToolUseID]
			if c == nil {
				continue
			}
			delete(b.uses, bl.ToolUseID)
			*c = *NewCall(c.Code, contentText(bl.Content), bl.IsError, nil)
			c.Line = n
		}
	}
}

// contentText is the text of a tool_result's content: a string, or the
// text blocks of a list.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &parts)
	var texts []string
	for _, p := range parts {
		if p.Type == "text" {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, "\n")
}

// stats reads one line of onetool's output.stats_file.
func (b *builder) stats(n int, data []byte) {
	var s struct {
		Kind     string `json:"kind"`
		Tool     string `json:"tool"`
		OK       bool   `json:"ok"`
		BytesOut int    `json:"bytes_out"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		b.errorf(n, "stats line: %v", err)
		return
	}
	switch s.Kind {
	case "call":
		b.statsTools = append(b.statsTools, s.Tool)
	case "run":
		tools := b.statsTools
		if tools == nil {
			tools = []string{}
		}
		b.statsTools = nil
		b.t.HasCode = false
		b.add(b.fileID, &Call{Error: !s.OK, Tools: tools, Chars: s.BytesOut, Discovery: IsDiscovery("", tools), Line: n})
	}
}
