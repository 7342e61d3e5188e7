package runner

import (
	"fmt"
	"slices"
	"strings"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/internal/suggest"
	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/runner/config"
)

// resolveAliases maps each alias to the id of the tool it finally names,
// following aliases of aliases (SPEC §5.1). Cycles, targets that do not
// exist, and names that would hide a pack or a global are problems,
// reported together at the alias's line of the configuration.
func resolveAliases(cfg *config.Config, reg *packs.Registry, reserved starlark.StringDict) (map[string]string, error) {
	aliases := cfg.Aliases
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
	var problems configErrors
	for _, name := range names {
		key := "aliases." + name
		if _, ok := reg.Pack(name); ok {
			problems.add(cfg.Problem(key, "alias '%s' has the name of a pack: aliases never shadow packs; choose another name", name))
			continue
		}
		if _, ok := reserved[name]; ok || starlark.Universe.Has(name) {
			problems.add(cfg.Problem(key, "alias '%s' would hide the global '%s'; choose another name", name, name))
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
				problems.add(cfg.Problem(key, "alias cycle: %s", strings.Join(append(chain, target), " → ")))
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
			problems.add(cfg.Problem(key, "%s", msg))
			continue
		}
		out[name] = t.ID()
	}
	if err := problems.err(); err != nil {
		return nil, err
	}
	return out, nil
}

// configErrors are problems of the configuration found while building a
// Runner: each names file, line and key; together they match ErrConfig.
type configErrors []error

func (c *configErrors) add(err error) { *c = append(*c, err) }

// addAll adds err, or each problem of err when it is configErrors.
func (c *configErrors) addAll(err error) {
	if list, ok := err.(configErrors); ok {
		*c = append(*c, list...)
		return
	}
	*c = append(*c, err)
}

func (c configErrors) err() error {
	if len(c) == 0 {
		return nil
	}
	return c
}

func (c configErrors) Error() string {
	msgs := make([]string, len(c))
	for i, e := range c {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

func (c configErrors) Unwrap() []error { return append([]error{ErrConfig}, c...) }
