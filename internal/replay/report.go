package replay

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// The goals of issue 29 for a blind trial with real agents.
const (
	GoalCallsPerTask       = 1.3
	GoalResultCharsPerTask = 1000
)

// Figures are the counts of a set of calls.
type Figures struct {
	Calls          int `json:"calls"`
	ResultChars    int `json:"result_chars"`
	DiscoveryCalls int `json:"discovery_calls"`
	DiscoveryChars int `json:"discovery_chars"`
	Errors         int `json:"errors"`
}

// Count adds up calls.
func Count(calls []*Call) Figures {
	var f Figures
	for _, c := range calls {
		f.Calls++
		f.ResultChars += c.Chars
		if c.Discovery {
			f.DiscoveryCalls++
			f.DiscoveryChars += c.Chars
		}
		if c.Error {
			f.Errors++
		}
	}
	return f
}

func (f *Figures) add(g Figures) {
	f.Calls += g.Calls
	f.ResultChars += g.ResultChars
	f.DiscoveryCalls += g.DiscoveryCalls
	f.DiscoveryChars += g.DiscoveryChars
	f.Errors += g.Errors
}

// TaskFigures are one task's figures, as recorded and, after a rerun, today.
type TaskFigures struct {
	Task     string   `json:"task"`
	Recorded Figures  `json:"recorded"`
	Rerun    *Figures `json:"rerun,omitempty"`
}

// Summary is the figures of a whole trial.
type Summary struct {
	Tasks int `json:"tasks"`
	Figures
	CallsPerTask       float64 `json:"calls_per_task"`
	ResultCharsPerTask float64 `json:"result_chars_per_task"`
	// DiscoveryShare is the part of the result characters that was
	// discovery, from 0 to 1.
	DiscoveryShare float64 `json:"discovery_share"`
	// GoalsMet: at most GoalCallsPerTask calls and GoalResultCharsPerTask
	// result characters per task.
	GoalsMet bool `json:"goals_met"`
}

func summarize(tasks int, f Figures) Summary {
	s := Summary{Tasks: tasks, Figures: f}
	if tasks > 0 {
		s.CallsPerTask = float64(f.Calls) / float64(tasks)
		s.ResultCharsPerTask = float64(f.ResultChars) / float64(tasks)
	}
	if f.ResultChars > 0 {
		s.DiscoveryShare = float64(f.DiscoveryChars) / float64(f.ResultChars)
	}
	s.GoalsMet = s.CallsPerTask <= GoalCallsPerTask && s.ResultCharsPerTask <= GoalResultCharsPerTask
	return s
}

// Failure is a call that fails today and did not in the recording.
type Failure struct {
	Task  string `json:"task"`
	Line  int    `json:"line"`  // of the trial file
	Error string `json:"error"` // the first line of today's result
}

// Report is what `onetool bench replay` prints.
type Report struct {
	Trial    string        `json:"trial"`
	Notes    []string      `json:"notes,omitempty"`
	Tasks    []TaskFigures `json:"tasks"`
	Recorded Summary       `json:"recorded"`
	Rerun    *Summary      `json:"rerun,omitempty"`
	// Failures lists, after a rerun, the calls that fail today but did
	// not in the recording.
	Failures []Failure `json:"failures,omitempty"`
	Goals    struct {
		CallsPerTask       float64 `json:"calls_per_task"`
		ResultCharsPerTask int     `json:"result_chars_per_task"`
	} `json:"goals"`
}

// NewReport computes the figures of a trial and, when rerun is not nil,
// of its rerun (Rerun's result: the same tasks and calls).
func NewReport(t, rerun *Trial) *Report {
	rep := &Report{Trial: t.Name, Notes: t.Notes, Tasks: []TaskFigures{}}
	rep.Goals.CallsPerTask, rep.Goals.ResultCharsPerTask = GoalCallsPerTask, GoalResultCharsPerTask
	var rec, now Figures
	for i, tk := range t.Tasks {
		tf := TaskFigures{Task: tk.ID, Recorded: Count(tk.Calls)}
		rec.add(tf.Recorded)
		if rerun != nil {
			f := Count(rerun.Tasks[i].Calls)
			tf.Rerun = &f
			now.add(f)
			for j, c := range rerun.Tasks[i].Calls {
				if c.Error && !tk.Calls[j].Error {
					first, _, _ := strings.Cut(c.Result, "\n")
					rep.Failures = append(rep.Failures, Failure{Task: tk.ID, Line: tk.Calls[j].Line, Error: first})
				}
			}
		}
		rep.Tasks = append(rep.Tasks, tf)
	}
	rep.Recorded = summarize(len(t.Tasks), rec)
	if rerun != nil {
		s := summarize(len(t.Tasks), now)
		rep.Rerun = &s
	}
	return rep
}

// WriteJSON writes the report as one indented JSON object.
func (rep *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// WriteText writes the report as a table and a summary.
func (rep *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "trial: %s (%d tasks, %d calls)\n", rep.Trial, rep.Recorded.Tasks, rep.Recorded.Calls)
	for _, n := range rep.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	b.WriteString("\n")
	var rows [][]string
	if rep.Rerun != nil {
		rows = append(rows, []string{"task", "calls", "result chars", "discovery chars", "errors", "|", "today: result chars", "discovery chars", "errors"})
	} else {
		rows = append(rows, []string{"task", "calls", "result chars", "discovery chars", "errors"})
	}
	row := func(name string, f Figures, now *Figures) {
		r := []string{name, fmt.Sprint(f.Calls), fmt.Sprint(f.ResultChars), fmt.Sprint(f.DiscoveryChars), fmt.Sprint(f.Errors)}
		if now != nil {
			r = append(r, "|", fmt.Sprint(now.ResultChars), fmt.Sprint(now.DiscoveryChars), fmt.Sprint(now.Errors))
		}
		rows = append(rows, r)
	}
	for _, tf := range rep.Tasks {
		row(tf.Task, tf.Recorded, tf.Rerun)
	}
	var now *Figures
	if rep.Rerun != nil {
		now = &rep.Rerun.Figures
	}
	row("all", rep.Recorded.Figures, now)
	writeTable(&b, rows)
	b.WriteString("\n")
	summary := func(label string, s Summary) {
		fmt.Fprintf(&b, "%s\n", label)
		fmt.Fprintf(&b, "  calls per task:         %-8s(goal: at most %.1f)\n", fmt.Sprintf("%.2f", s.CallsPerTask), GoalCallsPerTask)
		fmt.Fprintf(&b, "  result chars per task:  %-8s(goal: at most %d)\n", fmt.Sprintf("%.0f", s.ResultCharsPerTask), GoalResultCharsPerTask)
		fmt.Fprintf(&b, "  discovery:              %d of %d result chars (%.0f%%), %d of %d calls\n",
			s.DiscoveryChars, s.ResultChars, 100*s.DiscoveryShare, s.DiscoveryCalls, s.Calls)
		met := "not met"
		if s.GoalsMet {
			met = "met"
		}
		fmt.Fprintf(&b, "  goals:                  %s\n", met)
	}
	summary("recorded:", rep.Recorded)
	if rep.Rerun != nil {
		summary("today (the same programs run against this build):", *rep.Rerun)
		for _, f := range rep.Failures {
			fmt.Fprintf(&b, "fails today: %s (line %d): %s\n", f.Task, f.Line, f.Error)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeTable writes rows in columns two spaces apart: the first column
// aligned left, the others right.
func writeTable(b *strings.Builder, rows [][]string) {
	var widths []int
	for _, r := range rows {
		for i, c := range r {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	for _, r := range rows {
		var line strings.Builder
		for i, c := range r {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			if i > 0 {
				line.WriteString("  ")
			}
			if i == 0 {
				line.WriteString(c + pad)
			} else {
				line.WriteString(pad + c)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
}
