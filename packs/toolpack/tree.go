package toolpack

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/onetool-dev/onetool/internal/safefile"
	"github.com/onetool-dev/onetool/internal/yamltree"
)

// Bounds that keep a hostile file from hanging the loader or exhausting
// memory. Real toolpacks are a few kilobytes and a few hundred values.
// maxDepth is not the 64 of onetool.yaml: toolpacks have always allowed
// 100 (their JSON Schemas may nest deeply), and a file that loads today
// must go on loading.
const (
	maxFileSize = 1 << 20 // bytes per file
	maxNodes    = 100_000 // values per file, after expanding YAML aliases
	maxDepth    = 100     // nesting of mappings and lists
)

// The tree of a toolpack file (see yamltree.Node), from YAML or JSON:
// both syntaxes give the same tree, so everything after parsing is shared.
// Toolpacks use Node's Number for the JSON form of numbers.
type (
	node = yamltree.Node
	pair = yamltree.Pair
)

// parseError is a file that is not YAML (or JSON); line is 0 when the
// parser did not say where.
type parseError struct {
	line int
	msg  string
}

func (e *parseError) Error() string { return e.msg }

// readFile reads a regular file of at most maxFileSize bytes. Devices and
// pipes are refused: opening or reading them could block forever.
func readFile(file string) ([]byte, error) {
	return safefile.ReadRegular(file, maxFileSize, "a toolpack file")
}

// parseYAML parses data as one YAML document. It returns nil for an empty
// document. Problems inside the tree that do not stop parsing (an
// unsupported tag, a duplicate key) are reported through report.
func parseYAML(data []byte, file string, report func(line int, field path, format string, args ...any)) (root *node, err error) {
	// yaml.v3 has panicked on hostile input in the past; a toolpack file
	// must never take the program down.
	defer func() {
		if r := recover(); r != nil {
			root, err = nil, &parseError{msg: fmt.Sprintf("YAML parser failed: %v", r)}
		}
	}()
	root, err = yamltree.Parse(data, yamltree.Options{
		File:           file,
		MaxDepth:       maxDepth,
		Budget:         yamltree.NewBudget(maxNodes), // per file
		SecondDocument: "a file holds one toolpack, or a list of them",
		Report:         func(at yamltree.Pos, field path, msg string) { report(at.Line, field, "%s", msg) },
	})
	if err != nil {
		e := &yamltree.Error{Msg: err.Error()}
		errors.As(err, &e) // Parse's errors are all *yamltree.Error
		// A problem that stops parsing is reported with its line and no
		// Field, as toolpacks always have (the configuration gives each
		// its key); nesting too deep names the field in its message, as
		// parseJSON does.
		pe := &parseError{line: e.Line, msg: e.Msg}
		if errors.Is(err, yamltree.ErrTooDeep) {
			pe.msg = fmt.Sprintf("%s: %s", e.Path, e.Msg)
		}
		return nil, pe
	}
	return root, nil
}

// parseJSON parses data as one JSON value into the same tree as YAML
// gives. JSON is YAML, but yaml.v3 refuses some valid JSON ("\/" and
// surrogate-pair escapes such as "\ud83d\ude00", which Python's json
// module writes for every emoji), so .json files get a JSON parser.
func parseJSON(data []byte, file string, report func(line int, field path, format string, args ...any)) (*node, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	p := &jsonParser{file: file, data: data, dec: json.NewDecoder(bytes.NewReader(data)), line: 1, budget: maxNodes, report: report}
	p.dec.UseNumber()
	n, err := p.value(nil, 0)
	if err != nil {
		return nil, err
	}
	if _, err := p.dec.Token(); err != io.EOF {
		return nil, &parseError{line: p.lineAt(p.dec.InputOffset()), msg: "JSON syntax error: data after the top-level value"}
	}
	return n, nil
}

// jsonParser reads tokens and keeps track of lines: json.Decoder gives
// byte offsets only.
type jsonParser struct {
	file   string
	data   []byte
	dec    *json.Decoder
	off    int // offset up to which lines are counted
	line   int // line at off
	budget int
	report func(line int, field path, format string, args ...any)
}

// at is the position of a value at line.
func (p *jsonParser) at(line int) yamltree.Pos { return yamltree.Pos{File: p.file, Line: line} }

// lineAt returns the line of offset, which never moves backwards.
func (p *jsonParser) lineAt(offset int64) int {
	end := min(int(offset), len(p.data))
	if end > p.off {
		p.line += bytes.Count(p.data[p.off:end], []byte{'\n'})
		p.off = end
	}
	return p.line
}

// token reads the next token and the line it starts at.
func (p *jsonParser) token() (json.Token, int, error) {
	// InputOffset is the end of the previous token; the next one starts
	// after whitespace and separators.
	start := int(p.dec.InputOffset())
	for start < len(p.data) && strings.IndexByte(" \t\r\n,:", p.data[start]) >= 0 {
		start++
	}
	line := p.lineAt(int64(start))
	tok, err := p.dec.Token()
	if err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			// Counted afresh: lineAt may already be past the offset, having
			// skipped the separators that made the error.
			line := 1 + bytes.Count(p.data[:min(int(se.Offset), len(p.data))], []byte{'\n'})
			return nil, 0, &parseError{line: line, msg: "JSON syntax error: " + se.Error()}
		}
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, 0, &parseError{line: line, msg: "JSON syntax error: " + err.Error()}
	}
	return tok, line, nil
}

// value reads one value and everything in it.
func (p *jsonParser) value(at path, depth int) (*node, error) {
	tok, line, err := p.token()
	if err != nil {
		return nil, err
	}
	if depth > maxDepth {
		return nil, &parseError{line: line, msg: fmt.Sprintf("%s: nested more than %d levels deep", at, maxDepth)}
	}
	if p.budget--; p.budget < 0 {
		return nil, &parseError{line: line, msg: fmt.Sprintf("more than %d values; refusing to read further", maxNodes)}
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			n := &node{Pos: p.at(line), Kind: yamltree.MappingNode}
			seen := map[string]int{}
			for p.dec.More() {
				kt, kline, err := p.token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := p.value(at.With(k), depth+1)
				if err != nil {
					return nil, err
				}
				if first, dup := seen[k]; dup {
					p.report(kline, at.With(k), "duplicate key (first written at line %d)", first)
					continue
				}
				seen[k] = kline
				n.Pairs = append(n.Pairs, pair{Key: k, At: p.at(kline), Val: v})
			}
			_, _, err := p.token() // '}'
			return n, err
		case '[':
			n := &node{Pos: p.at(line), Kind: yamltree.ListNode}
			for p.dec.More() {
				v, err := p.value(at.Index(len(n.Items)), depth+1)
				if err != nil {
					return nil, err
				}
				n.Items = append(n.Items, v)
			}
			_, _, err := p.token() // ']'
			return n, err
		}
		return nil, &parseError{line: line, msg: fmt.Sprintf("JSON syntax error: unexpected %v", t)}
	case json.Number:
		tag := yamltree.TagInt
		if strings.ContainsAny(string(t), ".eE") {
			tag = yamltree.TagFloat
		}
		return &node{Pos: p.at(line), Kind: yamltree.ScalarNode, Tag: tag, Value: string(t)}, nil
	case string:
		return &node{Pos: p.at(line), Kind: yamltree.ScalarNode, Tag: yamltree.TagStr, Value: t}, nil
	case bool:
		return &node{Pos: p.at(line), Kind: yamltree.ScalarNode, Tag: yamltree.TagBool, Value: strconv.FormatBool(t)}, nil
	case nil:
		return &node{Pos: p.at(line), Kind: yamltree.ScalarNode, Tag: yamltree.TagNull, Value: "null"}, nil
	}
	return nil, &parseError{line: line, msg: fmt.Sprintf("JSON syntax error: unexpected %v", tok)}
}
