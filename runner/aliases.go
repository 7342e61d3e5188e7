package runner

import (
	"fmt"
	"slices"
	"strings"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/internal/suggest"
	"github.com/onetool-dev/onetool/packs"
)

// resolveAliases maps each alias to the id of the tool it finally names,
// following aliases of aliases (SPEC §5.1). Cycles, targets that do not
// exist, and names that would hide a pack or a global are errors, reported
// together.
func resolveAliases(aliases map[string]string, reg *packs.Registry, reserved starlark.StringDict) (map[string]string, error) {
	names := make([]string, 0, len(aliases))
	for n := range aliases {
		names = append(names, n)
	}
	slices.Sort(names)
	var ids []string
	for _, t := range reg.Tools() {
		ids = append(ids, t.ID())
	}
	out := make(map[string]string, len(aliases))
	var problems []string
	for _, name := range names {
		if _, ok := reg.Pack(name); ok {
			problems = append(problems, fmt.Sprintf("alias '%s' has the name of a pack: aliases never shadow packs; choose another name", name))
			continue
		}
		if _, ok := reserved[name]; ok || starlark.Universe.Has(name) {
			problems = append(problems, fmt.Sprintf("alias '%s' would hide the global '%s'; choose another name", name, name))
			continue
		}
		target, chain := name, []string{name}
		for {
			next, isAlias := aliases[target]
			if !isAlias {
				break
			}
			target = strings.ReplaceAll(next, ":", ".")
			if slices.Contains(chain, target) {
				problems = append(problems, fmt.Sprintf("alias cycle: %s", strings.Join(append(chain, target), " → ")))
				target = ""
				break
			}
			chain = append(chain, target)
		}
		if target == "" {
			continue
		}
		t, ok := reg.Tool(target)
		if !ok {
			msg := fmt.Sprintf("alias '%s': target '%s' is not a tool", name, aliases[name])
			if s := suggest.Closest(target, ids); s != "" {
				msg += fmt.Sprintf("; did you mean '%s'?", s)
			}
			problems = append(problems, msg)
			continue
		}
		out[name] = t.ID()
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("%w: %s", ErrConfig, strings.Join(problems, "\n"))
	}
	return out, nil
}
