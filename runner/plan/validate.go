package plan

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/onetool-dev/onetool/internal/suggest"
)

// graph is a validated plan: step ids and dependency edges by index.
type graph struct {
	ids        []string       // id of each step (its index when Step.ID is "")
	byID       map[string]int // id → index
	deps       [][]int        // deps[i]: the steps i depends on, without repeats
	dependents [][]int        // dependents[i]: the steps that depend on i
}

// lookup finds a step by id, then by index written as a decimal string.
func (g *graph) lookup(s string) (int, bool) {
	if i, ok := g.byID[s]; ok {
		return i, true
	}
	if i, err := strconv.Atoi(s); err == nil && i >= 0 && i < len(g.ids) && strconv.Itoa(i) == s {
		return i, true
	}
	return -1, false
}

// Validate checks a plan before anything runs: every step has a tool; ids
// are unique; dependencies name existing steps other than the step itself;
// there is no cycle (the error names it: "cycle: a → b → a"); templates in
// args parse and only read steps the step depends on, directly or
// transitively. Errors wrap ErrNoTool, ErrDuplicateID, ErrUnknownDependency,
// ErrSelfDependency, ErrCycle, ErrBadTemplate, ErrMissingStep or
// ErrNotDependency.
func Validate(steps []Step) error {
	_, err := build(steps)
	return err
}

// build validates steps and returns their graph.
func build(steps []Step) (*graph, error) {
	n := len(steps)
	g := &graph{
		ids:        make([]string, n),
		byID:       make(map[string]int, n),
		deps:       make([][]int, n),
		dependents: make([][]int, n),
	}
	for i, s := range steps {
		id := s.ID
		if id == "" {
			id = strconv.Itoa(i)
		}
		if j, dup := g.byID[id]; dup {
			return nil, fmt.Errorf("%w: steps %d and %d both have id %q", ErrDuplicateID, j, i, id)
		}
		g.ids[i] = id
		g.byID[id] = i
	}
	for i, s := range steps {
		if strings.TrimSpace(s.Tool) == "" {
			return nil, fmt.Errorf("%w: step %s has no tool", ErrNoTool, g.ids[i])
		}
		seen := make(map[int]bool, len(s.DependsOn))
		for _, d := range s.DependsOn {
			j, ok := g.lookup(d)
			if !ok {
				msg := fmt.Sprintf("step %s depends on %q, which is neither a step id nor an index", g.ids[i], d)
				if c := suggest.Closest(d, g.ids); c != "" {
					msg += fmt.Sprintf(" (did you mean %q?)", c)
				}
				return nil, fmt.Errorf("%w: %s", ErrUnknownDependency, msg)
			}
			if j == i {
				return nil, fmt.Errorf("%w: step %s depends on itself", ErrSelfDependency, g.ids[i])
			}
			if !seen[j] {
				seen[j] = true
				g.deps[i] = append(g.deps[i], j)
				g.dependents[j] = append(g.dependents[j], i)
			}
		}
	}
	if cyc := g.cycle(); cyc != nil {
		names := make([]string, len(cyc))
		for k, i := range cyc {
			names[k] = g.ids[i]
		}
		return nil, fmt.Errorf("%w: %s", ErrCycle, strings.Join(names, " → "))
	}
	for i, s := range steps {
		if err := g.checkTemplates(i, s.Args); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// cycle returns the steps of a dependency cycle, first step repeated at the
// end, or nil when the graph is acyclic. The search starts from the steps
// in order, so the answer is stable.
func (g *graph) cycle() []int {
	const (
		white = iota
		grey
		black
	)
	color := make([]uint8, len(g.ids))
	var stack []int
	var found []int
	var visit func(i int) bool
	visit = func(i int) bool {
		color[i] = grey
		stack = append(stack, i)
		for _, j := range g.deps[i] {
			switch color[j] {
			case grey:
				k := len(stack) - 1
				for stack[k] != j {
					k--
				}
				found = append(append([]int{}, stack[k:]...), j)
				return true
			case white:
				if visit(j) {
					return true
				}
			}
		}
		stack = stack[:len(stack)-1]
		color[i] = black
		return false
	}
	for i := range g.ids {
		if color[i] == white && visit(i) {
			return found
		}
	}
	return nil
}

// ancestors returns the set of steps i depends on, directly or not.
func (g *graph) ancestors(i int) map[int]bool {
	seen := map[int]bool{}
	todo := append([]int{}, g.deps[i]...)
	for len(todo) > 0 {
		j := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if !seen[j] {
			seen[j] = true
			todo = append(todo, g.deps[j]...)
		}
	}
	return seen
}

// checkTemplates parses the templates in the args of step i and checks
// that each reads an existing step that i depends on.
func (g *graph) checkTemplates(i int, args map[string]any) error {
	var anc map[int]bool
	return walkStrings(args, func(s string) error {
		pieces, err := parseString(s)
		if err != nil {
			return fmt.Errorf("step %s: %w", g.ids[i], err)
		}
		for _, p := range pieces {
			if p.ref == nil {
				continue
			}
			j, err := lookupRef(g, p.ref)
			if err != nil {
				return fmt.Errorf("step %s uses %s: %w", g.ids[i], p.ref.raw, err)
			}
			if j == i {
				return fmt.Errorf("%w: step %s uses %s, which reads its own result", ErrNotDependency, g.ids[i], p.ref.raw)
			}
			if anc == nil {
				anc = g.ancestors(i)
			}
			if !anc[j] {
				return fmt.Errorf("%w: step %s uses %s but does not depend on %s: add it to depends_on",
					ErrNotDependency, g.ids[i], p.ref.raw, g.ids[j])
			}
		}
		return nil
	})
}
