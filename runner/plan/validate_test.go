package plan

import (
	"errors"
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	cases := []struct {
		name  string
		steps []Step
		is    error
		want  string
	}{
		{"unknown dep", []Step{{ID: "a", Tool: "t"}, {ID: "b", Tool: "t", DependsOn: []string{"ab"}}},
			ErrUnknownDependency, `step b depends on "ab"`},
		{"unknown index", []Step{{Tool: "t", DependsOn: []string{"5"}}}, ErrUnknownDependency, `"5"`},
		{"self dep", []Step{{ID: "a", Tool: "t", DependsOn: []string{"a"}}}, ErrSelfDependency, "step a depends on itself"},
		{"self dep by index", []Step{{Tool: "t"}, {ID: "x", Tool: "t", DependsOn: []string{"1"}}}, ErrSelfDependency, "x"},
		{"duplicate id", []Step{{ID: "a", Tool: "t"}, {ID: "a", Tool: "t"}}, ErrDuplicateID, `steps 0 and 1 both have id "a"`},
		{"duplicate default id", []Step{{Tool: "t"}, {ID: "0", Tool: "t"}}, ErrDuplicateID, `"0"`},
		{"no tool", []Step{{ID: "a"}}, ErrNoTool, "step a has no tool"},
		{"cycle", []Step{
			{ID: "z", Tool: "t"},
			{ID: "a", Tool: "t", DependsOn: []string{"b"}},
			{ID: "b", Tool: "t", DependsOn: []string{"c", "z"}},
			{ID: "c", Tool: "t", DependsOn: []string{"a"}},
		}, ErrCycle, "cycle: a → b → c → a"},
		{"template non-dependency", []Step{
			{ID: "s0", Tool: "t"},
			{ID: "s1", Tool: "t"},
			{ID: "s2", Tool: "t", DependsOn: []string{"s1"}, Args: map[string]any{"x": "${steps.s0.data.id}"}},
		}, ErrNotDependency, "step s2 uses ${steps.s0.data.id} but does not depend on s0: add it to depends_on"},
		{"template self", []Step{{ID: "s0", Tool: "t", Args: map[string]any{"x": "${step[0].data}"}}}, ErrNotDependency, "its own result"},
		{"template missing step", []Step{{ID: "s0", Tool: "t"}, {Tool: "t", DependsOn: []string{"s0"}, Args: map[string]any{"x": []any{"${steps.s00.data}"}}}},
			ErrMissingStep, `did you mean "s0"`},
		{"template missing index", []Step{{Tool: "t", Args: map[string]any{"x": "${step[3].data}"}}}, ErrMissingStep, "plan has 1 steps"},
		{"bad template", []Step{{Tool: "t"}, {Tool: "t", DependsOn: []string{"0"}, Args: map[string]any{"x": "${step[0].data[x]}"}}}, ErrBadTemplate, "not an integer"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := Validate(c.steps)
			if !errors.Is(err, c.is) {
				t.Fatalf("err = %v, want %v", err, c.is)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %q, want it to contain %q", err, c.want)
			}
		})
	}
}

func TestValidateOK(t *testing.T) {
	steps := []Step{
		{ID: "a", Tool: "t"},
		{Tool: "t", DependsOn: []string{"a"}},
		{ID: "c", Tool: "t", DependsOn: []string{"1", "a", "a"}, Args: map[string]any{
			"x": "${steps.a.data} ${step[1].data.*.id} ${HOME} $"}},
	}
	if err := Validate(steps); err != nil {
		t.Fatal(err)
	}
	if err := Validate(nil); err != nil {
		t.Fatal(err)
	}
}
