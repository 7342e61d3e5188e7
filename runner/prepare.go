package runner

import "github.com/onetool-dev/onetool/fence"

// prepare turns the text a client sent into code: prefixes, fences and
// indentation go (SPEC §2.1). Snippet expansion (§5.2) joins here.
func prepare(command string) (string, error) {
	return fence.Strip(command)
}
