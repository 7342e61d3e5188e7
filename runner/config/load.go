package config

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/onetool-dev/onetool/internal/yamltree"
)

// Load reads the config file at path (as returned by [Find]) with its
// includes and secrets, and checks it. An empty path gives [Default], with
// the secrets of opts.SecretsPath when that is set (they still redact
// output).
//
// The steps, each explained where it is done:
//
//  1. secrets: opts.SecretsPath, else secrets.yaml beside the file (secrets.go);
//  2. the file and its includes, merged (include.go), read with aliases
//     expanded and sizes bounded (node.go, with internal/yamltree);
//  3. ${NAME} expansion in every string but snippet bodies (expand.go);
//  4. strict decoding against the schema (schema.go, decode.go), which
//     also says which values from the environment are secrets
//     (decoder.shown).
//
// On failure Load returns nil and every problem found, as an errors.Join
// of *Error sorted by file and line. Problems that make a file unreadable
// (a syntax error, a missing include) stop the load before decoding, so
// that no follow-on errors are reported about values that were never read.
func Load(path string, opts LoadOptions) (*Config, error) {
	o := opts.withDefaults()
	errs := &errList{workDir: o.WorkDir}

	var file string
	if path != "" {
		abs, err := resolvePath(path, o.WorkDir, o.HomeDir)
		if err != nil {
			return nil, shownFrom(o.WorkDir, &Error{File: path, Msg: "config file", Err: err})
		}
		file = abs
	}

	secrets := findSecrets(file, o, errs)
	if errs.any() {
		return nil, errs.err()
	}
	if file == "" {
		c := Default()
		c.Secrets = secrets
		return c, nil
	}

	x := &expander{secrets: secrets, lookupEnv: o.LookupEnv}
	// No message shows a value of secrets.yaml or the environment,
	// whatever a check quotes (a value built from one already shows its
	// mask: this is the second line).
	errs.secrets = func() *Secrets { return messageSecrets(secrets, x.env) }
	l := &loader{errs: errs, x: x, home: o.HomeDir, budget: yamltree.NewBudget(maxNodes)}
	tree := l.loadFile(file, []string{file})
	if errs.any() {
		return nil, errs.err()
	}
	x.expandTree(tree, nil, errs)
	d := &decoder{errs: errs, home: o.HomeDir, masks: map[string]string{}, keys: map[string]pos{}, env: x.nodes}
	c := d.config(tree)
	if errs.any() {
		return nil, errs.err()
	}
	c.Path, c.Dir, c.Secrets = file, filepath.Dir(file), secrets.withEnv(d.secretEnv(x))
	c.keys, c.workDir, c.scrub = d.keys, o.WorkDir, errs.secrets()
	c.Files = unique(l.files)
	if tp := filepath.Join(c.Dir, "toolpacks"); isDir(tp) && !slices.Contains(c.Toolpacks, tp) {
		c.Toolpacks = append(c.Toolpacks, tp)
	}
	return c, nil
}

// findSecrets loads the secrets file: the one named in opts (which must
// exist; relative to the working directory, like any command-line path),
// else secrets.yaml beside the config file when there is one. It returns
// nil when there is no secrets file.
func findSecrets(configFile string, o LoadOptions, errs *errList) *Secrets {
	if o.SecretsPath != "" {
		abs, err := resolvePath(o.SecretsPath, o.WorkDir, o.HomeDir)
		if err != nil {
			errs.add(&Error{File: o.SecretsPath, Msg: "secrets file", Err: err})
			return nil
		}
		return loadSecrets(abs, errs)
	}
	if configFile == "" {
		return nil
	}
	beside := filepath.Join(filepath.Dir(configFile), "secrets.yaml")
	if _, err := os.Stat(beside); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return loadSecrets(beside, errs)
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// unique drops repeated strings, keeping the first of each: a file
// included from two places is listed once.
func unique(ss []string) []string {
	seen := make(map[string]bool, len(ss))
	out := make([]string, 0, len(ss))
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// messageSecrets is what configuration errors are scrubbed of: every
// secret, and every value taken from the environment (of any length that
// Redact replaces), wherever it was used. Nil when there are none.
func messageSecrets(secrets *Secrets, env map[string]string) *Secrets {
	if secrets == nil && len(env) == 0 {
		return nil
	}
	all := map[string]string{}
	if secrets != nil {
		maps.Copy(all, secrets.values)
	}
	for name, v := range env {
		if _, dup := all[name]; !dup {
			all[name] = v
		}
	}
	return newSecrets("", all)
}
