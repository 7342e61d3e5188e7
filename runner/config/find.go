package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// EnvConfig names the environment variable that points at a config file
// when no --config flag is given.
const EnvConfig = "ONETOOL_CONFIG"

// LoadOptions carries what Find and Load need from the outside world, so
// tests can inject it. The zero value uses the real process environment.
type LoadOptions struct {
	// SecretsPath is the --secrets flag: a secrets file that must exist.
	// Relative to WorkDir. Default: secrets.yaml beside the config file,
	// when it exists.
	SecretsPath string
	// LookupEnv reads environment variables; default os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// HomeDir replaces ~; default os.UserHomeDir.
	HomeDir string
	// WorkDir is the base of --config and --secrets paths and of
	// ./.onetool/; default os.Getwd.
	WorkDir string
}

// withDefaults fills the unset options from the process.
func (o LoadOptions) withDefaults() LoadOptions {
	if o.LookupEnv == nil {
		o.LookupEnv = os.LookupEnv
	}
	if o.HomeDir == "" {
		o.HomeDir, _ = os.UserHomeDir() // none known: ~ is an error where used
	}
	if o.WorkDir == "" {
		o.WorkDir, _ = os.Getwd()
	}
	return o
}

// Find returns the config file to load, trying in order:
//
//  1. flag (the --config flag), which must exist;
//  2. $ONETOOL_CONFIG, which must exist when set and non-empty;
//  3. ./.onetool/onetool.yaml under WorkDir;
//  4. ~/.onetool/onetool.yaml.
//
// It returns "" and no error when none of them exists: built-in defaults
// apply. The path returned is absolute.
func Find(flag string, opts LoadOptions) (string, error) {
	o := opts.withDefaults()
	if flag != "" {
		return mustExist(flag, "--config", o)
	}
	if v, ok := o.LookupEnv(EnvConfig); ok && v != "" {
		return mustExist(v, "$"+EnvConfig, o)
	}
	var candidates []string
	if o.WorkDir != "" {
		candidates = append(candidates, filepath.Join(o.WorkDir, ".onetool", "onetool.yaml"))
	}
	if o.HomeDir != "" {
		candidates = append(candidates, filepath.Join(o.HomeDir, ".onetool", "onetool.yaml"))
	}
	for _, c := range candidates {
		st, err := os.Stat(c)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return "", shownFrom(o.WorkDir, &Error{File: c, Msg: "cannot read the config file", Err: err})
		case st.IsDir():
			return "", shownFrom(o.WorkDir, &Error{File: c, Msg: "is a directory; the config file must be a file"})
		}
		return c, nil
	}
	return "", nil
}

// mustExist resolves a path named explicitly by the user (from is "--config"
// or "$ONETOOL_CONFIG", for the message) and checks that it is a file.
func mustExist(p, from string, o LoadOptions) (string, error) {
	abs, err := resolvePath(p, o.WorkDir, o.HomeDir)
	if err != nil {
		return "", &Error{File: p, Msg: from, Err: err}
	}
	st, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", shownFrom(o.WorkDir, &Error{File: abs, Msg: "config file named by " + from, Err: fs.ErrNotExist})
	case err != nil:
		return "", shownFrom(o.WorkDir, &Error{File: abs, Msg: "cannot read the config file named by " + from, Err: err})
	case st.IsDir():
		return "", shownFrom(o.WorkDir, &Error{File: abs, Msg: fmt.Sprintf("%s names a directory; give the file, such as %s", from, filepath.Join(abs, "onetool.yaml"))})
	}
	return abs, nil
}
