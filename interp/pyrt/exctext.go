package pyrt

import "go.starlark.net/starlark"

// RaiseText is Raise for a module's exception whose str is text while its
// args are others, as CPython's configparser errors set them:
// NoSectionError('x') reads "No section: 'x'" and has args ('x',).
func (c *ExcClass) RaiseText(text string, args starlark.Tuple, attrs starlark.StringDict) error {
	e := &ExcValue{class: c, args: args, attrs: attrs, text: text}
	return e.Error()
}
