package runner

import (
	"strings"

	"github.com/onetool-dev/onetool/fence"
)

// prepare turns the text a client sent into code: prefixes, fences and
// indentation go (SPEC §2.1), and a `$name k=v` snippet invocation is
// expanded (SPEC §5.2). The expansion is Starlark and runs like any code.
func (r *Runner) prepare(command string) (string, error) {
	code, err := fence.Strip(command)
	if err != nil {
		return "", err
	}
	if strings.HasPrefix(code, "$") {
		return r.snippets.Expand(code)
	}
	return code, nil
}
