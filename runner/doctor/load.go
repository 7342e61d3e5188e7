package doctor

import (
	"errors"
	"os"
	"slices"
	"strings"

	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/config"
)

// Stand-in values for unset variables: one that reads as an http(s) URL
// where the key wants one, else "0", which every other kind of value
// accepts (a string, a path, a number, a duration, a size).
const (
	standInURL   = "http://unset.invalid/"
	standInOther = "0"
)

// urlKeys are the last parts of the keys whose value must be an http(s)
// URL.
var urlKeys = []string{"url", "issuer", "audience"}

// load loads the configuration at file. When its only problems are
// unset ${NAME}s, it loads it again with a stand-in value for each, and
// returns that configuration with the unset problems, so that the other
// checks still run; the caller leaves out what they find at those keys.
// When the file has other problems too, or the stand-ins do not fit
// (a number where a URL is wanted…), it returns the first load's error.
func load(file string, o config.LoadOptions) (*config.Config, []*config.Error, error) {
	cfg, err := config.Load(file, o)
	if err == nil {
		return cfg, nil, nil
	}
	unset := configErrors(err)
	if len(unset) == 0 {
		return nil, nil, err
	}
	standIn := map[string]string{}
	for _, e := range unset {
		if e.Unset == "" {
			return nil, nil, err
		}
		v := standInOther
		if slices.Contains(urlKeys, e.Key[strings.LastIndexByte(e.Key, '.')+1:]) {
			v = standInURL
		}
		if standIn[e.Unset] != standInURL {
			standIn[e.Unset] = v
		}
	}
	lookup := o.LookupEnv
	if lookup == nil {
		lookup = os.LookupEnv
	}
	o.LookupEnv = func(name string) (string, bool) {
		if v, ok := standIn[name]; ok {
			return v, true
		}
		return lookup(name)
	}
	cfg, err2 := config.Load(file, o)
	if err2 != nil {
		return nil, nil, err
	}
	return cfg, unset, nil
}

// configErrors returns the *config.Error problems of a load error; nil
// when any of its problems is something else.
func configErrors(err error) []*config.Error {
	var out []*config.Error
	for _, e := range split(err) {
		var ce *config.Error
		if !errors.As(e, &ce) {
			return nil
		}
		out = append(out, ce)
	}
	return out
}

// split unwraps a list of problems — what Load (errors.Join) and
// runner.New (a list behind runner.ErrConfig) return — down to single
// problems. A list is an error whose text is its parts' texts, one per
// line (the sentinel that marks the list aside); any other error, even
// one that wraps several, is one problem.
func split(err error) []error {
	list, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return []error{err}
	}
	var texts []string
	var errs []error
	for _, e := range list.Unwrap() {
		if e == runner.ErrConfig {
			continue
		}
		errs = append(errs, e)
		texts = append(texts, e.Error())
	}
	if strings.Join(texts, "\n") != err.Error() {
		return []error{err}
	}
	var out []error
	for _, e := range errs {
		out = append(out, split(e)...)
	}
	return out
}
