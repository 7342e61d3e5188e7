package replay

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestIsDiscovery(t *testing.T) {
	for _, tt := range []struct {
		name  string
		code  string
		tools []string
		want  bool
	}{
		{"help of a pack", `ot.help(query="file")`, nil, true},
		{"help of a tool, printed", `print(ot.help(query="db.query"))`, nil, true},
		{"listing", `ot.tools(pattern="demo.*")`, nil, true},
		{"packs", `ot.packs()`, nil, true},
		{"servers, aliases, snippets, config", "ot.servers()\not.aliases()\not.snippets()\not.config()", nil, true},
		{"two helps", "a = ot.help(query='file')\nb = ot.help(query='db')\na + b", nil, true},
		{"db tables", `db.tables()`, nil, true},
		{"schemas of every table", `{t: db.schema(table=t) for t in db.tables()}`, nil, true},
		{"databases", `db.databases()`, nil, true},
		{"pragma table_info", `db.query(sql="PRAGMA table_info(products)")`, nil, true},
		{"sqlite_master", `db.query("SELECT name, sql FROM sqlite_master WHERE type = 'table'")`, nil, true},
		{"information_schema", `db.query(sql="select column_name from INFORMATION_SCHEMA.columns")`, nil, true},
		{"dir of a pack", `dir(db)`, nil, true},
		{"help builtin", `help(file.read)`, nil, true},
		{"call() of help", `call(ot.help, query="web")`, nil, true},
		{"help through json", `json.dumps(ot.packs())`, nil, true},
		{"a query of data", `db.query(sql="SELECT count(*) FROM orders")`, nil, false},
		{"a read", `file.read(path="notes/todo.md")`, nil, false},
		{"a fetch", `web.fetch(url="http://127.0.0.1:8000/")`, nil, false},
		{"an upstream tool", `github.search_issues(q="bug")`, nil, false},
		{"help and work together", "print(ot.help(query='db'))\ndb.query(sql='SELECT 1')", nil, false},
		{"tables and a query", "print(db.tables())\ndb.query(sql='SELECT * FROM orders')", nil, false},
		{"no tool at all", `1 + 1`, nil, false},
		{"print only", `print("hello")`, nil, false},
		{"help in a string is not a call", `"ot.help(query='file')"`, nil, false},
		{"help in a comment is not a call", "# ot.help()\nfile.read(path='a')", nil, false},
		{"methods of a variable are not tools", "rows = ot.help(query='db')\nrows.splitlines()", nil, true},
		{"methods of a loop variable", "[l.strip() for l in ot.help(query='file').splitlines()]", nil, true},
		{"a function called help by the program", "def help(x):\n    return x\nhelp(file.read(path='a'))", nil, false},
		{"dir assigned is not the builtin", "dir = 'src'\nfile.list(path=dir)", nil, false},
		{"tools given: help", "anything", []string{"ot.help"}, true},
		{"tools given: help and read", "", []string{"ot.help", "file.read"}, false},
		{"tools given: none", "", []string{}, false},
		{"tools given: query with a catalog", `db.query(sql="PRAGMA table_info(t)")`, []string{"db.query"}, true},
		{"catalog word without a query", `file.read(path="sqlite_master.txt")`, nil, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsDiscovery(tt.code, tt.tools); got != tt.want {
				tools, builtins := Tools(tt.code)
				t.Errorf("IsDiscovery(%q, %q) = %v, want %v (tools %q, builtins %q)", tt.code, tt.tools, got, tt.want, tools, builtins)
			}
		})
	}
}

func TestTools(t *testing.T) {
	for _, tt := range []struct {
		code                string
		tools, builtinCalls []string
	}{
		{`ot.help(query="file")`, []string{"ot.help"}, nil},
		{"x = db.query(sql='s')\nx.append(1)\nfile.read(path='p')", []string{"db.query", "file.read"}, nil},
		{`json.loads(web.fetch(url="u", format="raw"))["a"]`, []string{"web.fetch"}, nil},
		{`"a.b(" + 'c.d(' + """e.f(""" + r"g.h("`, nil, nil},
		{`f"{x.y}" + db.tables()[0]`, []string{"db.tables"}, nil},
		{"d = {}\nfor k, v in d.items():\n    k.upper()", nil, nil},
		{"help(file.read) + dir(db.query) + str(file.list(path='.'))", []string{"file.list"}, nil},
		{"import re\nre.match('a', 'b')", nil, nil},
		{"import math as m\nm.sqrt(2)", nil, nil},
		{"s = 'x'\ns.upper()", nil, nil},
		{"lambda p: p.strip()", nil, nil},
		{"try:\n    pass\nexcept ValueError as err:\n    err.args", nil, nil},
		{"demo.add(a=1, b=2)\ndemo.add(a=2, b=3)", []string{"demo.add"}, nil},
		{"print(len(dir(db)))", nil, []string{"print", "len", "dir"}},
		{"a = b = file.read(path='x')\na.strip() + b.strip()", []string{"file.read"}, nil},
		{"f(key=ot.help())", []string{"ot.help"}, []string{"f"}},
		{"s = 'x'; s.split()", nil, nil},
		{"if 'a' in ot.help(): 1", []string{"ot.help"}, nil},
		{"x = (file.read(path='a')\n     .splitlines())", []string{"file.read"}, nil},
		{"'unclosed\nfile.read(path='a')", []string{"file.read"}, nil},
	} {
		tools, builtins := Tools(tt.code)
		if !reflect.DeepEqual(tools, tt.tools) || (tt.builtinCalls != nil && !reflect.DeepEqual(builtins, tt.builtinCalls)) {
			t.Errorf("Tools(%q) = %q, %q; want %q, %q", tt.code, tools, builtins, tt.tools, tt.builtinCalls)
		}
	}
}

func read(t *testing.T, text string) (*Trial, error) {
	t.Helper()
	return Read(strings.NewReader(text), "trial.jsonl")
}

// shape is a trial as task: [chars discovery error] per call, for tests.
func shape(tr *Trial) map[string][][3]int {
	out := map[string][][3]int{}
	b := func(v bool) int {
		if v {
			return 1
		}
		return 0
	}
	for _, tk := range tr.Tasks {
		for _, c := range tk.Calls {
			out[tk.ID] = append(out[tk.ID], [3]int{c.Chars, b(c.Discovery), b(c.Error)})
		}
	}
	return out
}

func TestRead(t *testing.T) {
	for _, tt := range []struct {
		name  string
		text  string
		want  map[string][][3]int
		notes []string
	}{
		{"native", `{"task":"a","code":"ot.help(query=\"db\")","result":"0123456789"}
{"task":"b","code":"1","result":"é"}

{"task":"a","code":"db.query(sql=\"x\")","result":"abc","error":true,"agent":"ignored"}`,
			map[string][][3]int{"a": {{10, 1, 0}, {3, 0, 1}}, "b": {{1, 0, 0}}}, nil},
		{"note", `{"note":"a sample"}
{"task":"a","code":"1","result":""}`, map[string][][3]int{"a": {{0, 0, 0}}}, []string{"a sample"}},
		{"tools named", `{"task":"a","code":"x()","result":"abc","tools":["ot.help"]}`, map[string][][3]int{"a": {{3, 1, 0}}}, nil},
		{"MCP JSON-RPC", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}
{"jsonrpc":"2.0","id":0,"result":{}}
{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"run","arguments":{"command":"ot.help()"}}}
{"jsonrpc":"2.0","method":"notifications/progress","params":{}}
{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"four"}]}}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"other","arguments":{"command":"x"}}}
{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"not ours"}]}}
{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}
{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"run","arguments":{"command":"file.read(path='a')"}}}
{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Error: no"}],"isError":true}}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run","arguments":{"command":"1"}}}
{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"boom"}}`,
			map[string][][3]int{"trial": {{4, 1, 0}}, "trial/2": {{9, 0, 1}, {4, 0, 1}}}, nil},
		{"Messages transcript", `{"type":"summary","summary":"x"}
{"type":"user","sessionId":"s1","message":{"role":"user","content":"do it"}}
{"type":"assistant","sessionId":"s1","message":{"role":"assistant","content":[{"type":"text","text":"ok"},{"type":"tool_use","id":"u1","name":"mcp__onetool__run","input":{"command":"ot.help(query=\"file\")"}}]}}
{"type":"user","sessionId":"s1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"u1","content":[{"type":"text","text":"help"}]}]}}
{"type":"assistant","sessionId":"s1","message":{"role":"assistant","content":[{"type":"tool_use","id":"u2","name":"Bash","input":{"command":"ls"}}]}}
{"type":"user","sessionId":"s1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"u2","content":"a b"}]}}
{"type":"assistant","sessionId":"s1","message":{"role":"assistant","content":[{"type":"tool_use","id":"u3","name":"run","input":{"command":"file.read(path='x')"}}]}}
{"type":"user","sessionId":"s1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"u3","content":"Error: x","is_error":true}]}}`,
			map[string][][3]int{"s1": {{4, 1, 0}, {8, 0, 1}}}, nil},
		{"stats file", `{"kind":"call","time":"t","tool":"ot.help","duration_ms":1,"ok":true,"bytes_in":2,"bytes_out":900}
{"kind":"run","time":"t","duration_ms":1,"ok":true,"bytes_in":21,"bytes_out":850,"tool_calls":1}
{"kind":"call","time":"t","tool":"ot.help","duration_ms":1,"ok":true,"bytes_in":2,"bytes_out":10}
{"kind":"call","time":"t","tool":"db.query","duration_ms":1,"ok":true,"bytes_in":2,"bytes_out":10}
{"kind":"run","time":"t","duration_ms":1,"ok":false,"error_kind":"runtime","bytes_in":21,"bytes_out":40,"tool_calls":2}
{"kind":"run","time":"t","duration_ms":1,"ok":true,"bytes_in":1,"bytes_out":1,"tool_calls":0}`,
			map[string][][3]int{"trial": {{850, 1, 0}, {40, 0, 1}, {1, 0, 0}}}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := read(t, tt.text)
			if err != nil {
				t.Fatal(err)
			}
			if got := shape(tr); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("calls = %v, want %v", got, tt.want)
			}
			if !reflect.DeepEqual(tr.Notes, tt.notes) {
				t.Errorf("notes = %q, want %q", tr.Notes, tt.notes)
			}
		})
	}
}

func TestReadErrors(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		want       []string
	}{
		{"empty", "", []string{"no run calls found", "docs/agents.md"}},
		{"only a note", `{"note":"x"}`, []string{"no run calls found"}},
		{"not JSON", "task,code\n", []string{"trial.jsonl:1: not a JSON object"}},
		{"missing fields", `{"task":"a","code":"1"}`, []string{"trial.jsonl:1: missing result: each call needs task, code and result"}},
		{"wrong type", `{"task":"a","code":1,"result":""}`, []string{"trial.jsonl:1:", "string"}},
		{"empty task", `{"task":"","code":"1","result":""}`, []string{"task is empty"}},
		{"every bad line, up to ten", strings.Repeat("x\n", 30), []string{"trial.jsonl:1:", "trial.jsonl:10:"}},
		{"line too long", `{"task":"a","code":"1","result":"` + strings.Repeat("x", MaxLine) + `"}`, []string{"trial.jsonl:1: line longer than 16 MiB"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := read(t, tt.text)
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("err = %v, want ErrFormat", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "trial.jsonl:11:") {
				t.Errorf("more than ten errors: %v", err)
			}
		})
	}
}

func TestFigures(t *testing.T) {
	call := func(chars int, disc, isErr bool) *Call { return &Call{Chars: chars, Discovery: disc, Error: isErr} }
	for _, tt := range []struct {
		name  string
		tasks [][]*Call
		want  Summary
	}{
		{"the trial of issue 29, in round numbers",
			// 3 tasks, 7 calls, 3,000 characters of which half discovery
			[][]*Call{{call(1000, true, false), call(500, false, false)}, {call(250, true, false), call(250, true, false), call(500, false, false)}, {call(0, true, true), call(500, false, false)}},
			Summary{Tasks: 3, Figures: Figures{Calls: 7, ResultChars: 3000, DiscoveryCalls: 4, DiscoveryChars: 1500, Errors: 1},
				CallsPerTask: 7.0 / 3, ResultCharsPerTask: 1000, DiscoveryShare: 0.5}},
		{"the goals met: one call per task, 1,000 characters",
			[][]*Call{{call(1000, false, false)}, {call(400, false, false)}},
			Summary{Tasks: 2, Figures: Figures{Calls: 2, ResultChars: 1400}, CallsPerTask: 1, ResultCharsPerTask: 700, GoalsMet: true}},
		{"1.5 calls per task is over the goal",
			[][]*Call{{call(10, true, false), call(10, false, false)}, {call(10, false, false)}},
			Summary{Tasks: 2, Figures: Figures{Calls: 3, ResultChars: 30, DiscoveryCalls: 1, DiscoveryChars: 10}, CallsPerTask: 1.5, ResultCharsPerTask: 15, DiscoveryShare: 1.0 / 3}},
		{"1,001 characters per task is over the goal",
			[][]*Call{{call(1001, false, false)}},
			Summary{Tasks: 1, Figures: Figures{Calls: 1, ResultChars: 1001}, CallsPerTask: 1, ResultCharsPerTask: 1001}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tr := &Trial{Name: "t"}
			for i, calls := range tt.tasks {
				tr.Tasks = append(tr.Tasks, &Task{ID: string(rune('a' + i)), Calls: calls})
			}
			rep := NewReport(tr, nil)
			if !reflect.DeepEqual(rep.Recorded, tt.want) {
				t.Errorf("summary = %+v\nwant      %+v", rep.Recorded, tt.want)
			}
			var sum int
			for _, tf := range rep.Tasks {
				sum += tf.Recorded.ResultChars
			}
			if sum != tt.want.ResultChars {
				t.Errorf("tasks add up to %d characters, total says %d", sum, tt.want.ResultChars)
			}
		})
	}
}

func TestMerge(t *testing.T) {
	a, _ := read(t, `{"task":"x","code":"1","result":"a"}`)
	b, _ := Read(strings.NewReader(`{"task":"x","code":"2","result":"bb"}
{"task":"y","code":"3","result":"c"}`), "b.jsonl")
	m := Merge(a, b)
	if got := shape(m); !reflect.DeepEqual(got, map[string][][3]int{"x": {{1, 0, 0}, {2, 0, 0}}, "y": {{1, 0, 0}}}) || m.Name != "trial.jsonl, b.jsonl" {
		t.Errorf("merged: %v %q", got, m.Name)
	}
}

func TestParseReplacement(t *testing.T) {
	if r, err := ParseReplacement("http://a:1=http://b:2"); err != nil || r != (Replacement{"http://a:1", "http://b:2"}) {
		t.Errorf("got %+v, %v", r, err)
	}
	for _, bad := range []string{"nothing", "=x"} {
		if _, err := ParseReplacement(bad); err == nil || !strings.Contains(err.Error(), "OLD=NEW") {
			t.Errorf("ParseReplacement(%q) = %v, want an error saying OLD=NEW", bad, err)
		}
	}
}

// A stats file has sizes but no programs: it cannot be rerun, and says so.
func TestRerunNeedsPrograms(t *testing.T) {
	tr, err := read(t, `{"kind":"run","time":"t","duration_ms":1,"ok":true,"bytes_in":1,"bytes_out":1,"tool_calls":0}`)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Rerun(context.Background(), tr, nil, nil); !errors.Is(err, ErrNoCode) {
		t.Errorf("err = %v, want ErrNoCode", err)
	}
}

// The rule reads a program of any size in linear time: each of these
// 256 KiB programs takes well under a second (under load); read
// quadratically (as a first version did), tens of seconds or more.
func TestToolsLinear(t *testing.T) {
	for _, unit := range []string{"a=", "x = y = ", "for a in for b in ", "lambda ", "f(x=", "((", "if a in b: ", "def ", "import a, "} {
		code := strings.Repeat(unit, (256<<10)/len(unit)) + "\nfile.read(path='p')"
		start := time.Now()
		tools, _ := Tools(code)
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%q × %d: %v", unit, (256<<10)/len(unit), d)
		}
		if len(tools) != 1 || tools[0] != "file.read" {
			t.Errorf("%q: tools = %q, want [file.read]", unit, tools)
		}
	}
}
