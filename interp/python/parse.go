package python

import (
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
)

// Parse reads src and lowers it (see lower). It is an interp.Parser: the
// tree it returns needs Builtins among the predeclared names.
func Parse(src string) (*syntax.File, error) {
	f, err := interp.ParseStarlark(src)
	if err != nil {
		return nil, err
	}
	lower(f)
	return f, nil
}
