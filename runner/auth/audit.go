package auth

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// AuditEntry is one line of the audit log: one run of a principal. It
// holds no program text, and argument values only when the operator asks
// for them (serve.auth.audit_arguments), secrets redacted.
type AuditEntry struct {
	Time      time.Time `json:"time"`      // when the run started
	Principal string    `json:"principal"` // the token's name
	Policy    string    `json:"policy"`
	Tools     []string  `json:"tools"`   // distinct tool ids called or refused, in first-call order
	Outcome   string    `json:"outcome"` // "ok", "error" or "denied" (the policy refused a call, even one the program caught)
	ErrorKind string    `json:"error_kind,omitempty"`
	ToolCalls int       `json:"tool_calls"`
	Duration  float64   `json:"duration_ms"`
	// Calls are the run's first tool calls with their arguments, with
	// serve.auth.audit_arguments only.
	Calls []AuditCall `json:"calls,omitempty"`
}

// AuditCall is one tool call of an audit line: the tool and its
// arguments (a JSON value, or a string when cut short).
type AuditCall struct {
	Tool string `json:"tool"`
	Args any    `json:"args"`
}

// Audit appends AuditEntry values as JSON lines to a writer.
type Audit struct {
	mu sync.Mutex
	w  io.Writer
}

// NewAudit returns an audit log writing to w.
func NewAudit(w io.Writer) *Audit { return &Audit{w: w} }

// OpenAudit opens (or creates, readable by its owner only) the audit log
// file at path for appending. The caller closes the file.
func OpenAudit(path string) (*Audit, *os.File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("opening serve.auth.audit_log: %w", err)
	}
	return NewAudit(f), f, nil
}

// Record writes e as one line, in one write, so that lines of concurrent
// runs never interleave.
func (a *Audit) Record(e AuditEntry) error {
	if e.Tools == nil {
		e.Tools = []string{}
	}
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	_, err = a.w.Write(append(b, '\n'))
	return err
}
