package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/onetool-dev/onetool/runner"
)

// rootFlags is the repeatable --root of serve, run and repl (SPEC §8.2):
// the directories file access is confined to, in place of the working
// directory. Configured projects and packs.file.allowed_dirs stay roots;
// an MCP client that offers roots replaces these for its session.
type rootFlags struct{ dirs []string }

const rootUsage = "allow file access under `DIR` instead of the working directory (repeatable; ~ is your home); a client's roots replace it"

func (f *rootFlags) register(cmd *cobra.Command) {
	// StringArray, not StringSlice: a directory name may hold a comma.
	cmd.Flags().StringArrayVar(&f.dirs, "root", nil, rootUsage)
}

// options returns the runner option for the directories given, each
// checked to be a directory now: a typo must not start a server that
// refuses every file. Desktop clients start servers without a shell, so
// a leading ~ is expanded here.
func (f *rootFlags) options() ([]runner.Option, error) {
	if len(f.dirs) == 0 {
		return nil, nil
	}
	dirs := make([]string, 0, len(f.dirs))
	for _, d := range f.dirs {
		p, err := expandHome(d)
		if err != nil {
			return nil, usageErrorf("--root %s: %v", d, err)
		}
		st, err := os.Stat(p)
		switch {
		case err != nil && os.IsNotExist(err):
			return nil, usageErrorf("--root %s: no such directory", d)
		case err != nil:
			return nil, usageErrorf("--root %s: %v", d, err)
		case !st.IsDir():
			return nil, usageErrorf("--root %s: not a directory", d)
		}
		dirs = append(dirs, p)
	}
	return []runner.Option{runner.WithRoots(dirs...)}, nil
}

// expandHome replaces a leading ~ (alone or followed by a separator) by
// the home directory.
func expandHome(p string) (string, error) {
	if p == "" {
		return "", fmt.Errorf("empty directory name")
	}
	if p != "~" && !strings.HasPrefix(p, "~/") && !strings.HasPrefix(p, "~"+string(filepath.Separator)) {
		return p, nil
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return "", fmt.Errorf("~ needs a home directory ($HOME is not set)")
	}
	return filepath.Join(home, p[1:]), nil
}
