package auth

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
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

	// A file opened by OpenAudit: the path it was opened at, what it
	// holds after the last line (to notice truncation), and who hears
	// when either changed behind onetool's back.
	path string
	f    *os.File
	id   os.FileInfo // f's identity when opened
	size int64
	log  *slog.Logger
}

// NewAudit returns an audit log writing to w.
func NewAudit(w io.Writer) *Audit { return &Audit{w: w} }

// OpenAudit opens (or creates, readable by its owner only) the audit log
// file at path for appending; Close closes it. Before each line it checks
// that path still names the file it has open: when that file was renamed
// or deleted (log rotation, or someone emptying the log by deleting it),
// it opens path anew, so that lines never go on into a file nobody sees;
// when the file shrank, it was truncated outside onetool. Either is
// logged to log (nil: discarded).
func OpenAudit(path string, log *slog.Logger) (*Audit, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	a := &Audit{path: path, log: log}
	if err := a.open(); err != nil {
		return nil, err
	}
	return a, nil
}

// open opens a.path for appending.
func (a *Audit) open() error {
	f, err := os.OpenFile(a.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("opening serve.auth.audit_log: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("opening serve.auth.audit_log: %w", err)
	}
	if a.f != nil {
		a.f.Close()
	}
	a.f, a.w, a.id, a.size = f, f, fi, fi.Size()
	return nil
}

// Close closes the file OpenAudit opened; nothing for NewAudit.
func (a *Audit) Close() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.f == nil {
		return nil
	}
	err := a.f.Close()
	a.f = nil
	return err
}

// follow makes sure the next line goes to the file at a.path (see
// OpenAudit). One stat a run: nothing beside a run's cost.
func (a *Audit) follow() {
	now, err := os.Stat(a.path)
	if err != nil || !os.SameFile(a.id, now) {
		if oerr := a.open(); oerr != nil {
			a.log.Error("serve.auth.audit_log was moved or deleted, and opening it again failed; lines go on into the old file", "path", a.path, "err", oerr)
			return
		}
		a.log.Warn("serve.auth.audit_log was moved or deleted outside onetool; writing to a new file at its path", "path", a.path)
		return
	}
	if now.Size() < a.size {
		a.log.Warn("serve.auth.audit_log was truncated outside onetool: earlier lines are lost", "path", a.path, "bytes_before", a.size, "bytes_now", now.Size())
	}
	a.size = now.Size()
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
	if a.f != nil {
		a.follow()
	} else if a.path != "" {
		return fmt.Errorf("serve.auth.audit_log %s is closed", a.path)
	}
	n, err := a.w.Write(append(b, '\n'))
	a.size += int64(n)
	return err
}
