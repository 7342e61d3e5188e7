package config

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

func TestFind(t *testing.T) {
	const cfg = "{}\n"
	tests := []struct {
		name  string
		files []string // created, relative to the test directory
		flag  string
		env   string // $ONETOOL_CONFIG
		want  string // relative to the test directory; "" = none
		err   string // substring of the error; "" = no error
	}{
		{name: "nothing", want: ""},
		{name: "home", files: []string{"home/.onetool/onetool.yaml"}, want: "home/.onetool/onetool.yaml"},
		{name: "local", files: []string{".onetool/onetool.yaml"}, want: ".onetool/onetool.yaml"},
		{name: "local beats home", files: []string{".onetool/onetool.yaml", "home/.onetool/onetool.yaml"}, want: ".onetool/onetool.yaml"},
		{name: "env", files: []string{"e.yaml"}, env: "e.yaml", want: "e.yaml"},
		{name: "env beats local", files: []string{"e.yaml", ".onetool/onetool.yaml"}, env: "e.yaml", want: "e.yaml"},
		{name: "empty env ignored", files: []string{".onetool/onetool.yaml"}, env: "", want: ".onetool/onetool.yaml"},
		{name: "flag", files: []string{"f.yaml"}, flag: "f.yaml", want: "f.yaml"},
		{name: "flag beats env", files: []string{"f.yaml", "e.yaml", ".onetool/onetool.yaml"}, flag: "f.yaml", env: "e.yaml", want: "f.yaml"},
		{name: "flag with tilde", files: []string{"home/cfg/o.yaml"}, flag: "~/cfg/o.yaml", want: "home/cfg/o.yaml"},
		{name: "missing flag", files: []string{".onetool/onetool.yaml"}, flag: "nope.yaml", err: "nope.yaml: config file named by --config: file does not exist"},
		{name: "missing env", files: []string{".onetool/onetool.yaml"}, env: "nope.yaml", err: "named by $ONETOOL_CONFIG"},
		{name: "flag names a directory", files: []string{"d/x"}, flag: "d", err: "--config names a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{}
			for _, f := range tt.files {
				files[f] = cfg
			}
			e := env{}
			if tt.env != "" || tt.name == "empty env ignored" {
				e[EnvConfig] = tt.env
			}
			dir, o := testDir(t, files, e)
			got, err := Find(tt.flag, o)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := ""
			if tt.want != "" {
				want = filepath.Join(dir, tt.want)
			}
			if got != want {
				t.Errorf("Find = %q, want %q", got, want)
			}
		})
	}
}

func TestFindMissingFlagIsNotExist(t *testing.T) {
	_, o := testDir(t, nil, nil)
	_, err := Find("missing.yaml", o)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("errors.Is(err, fs.ErrNotExist) = false for %v", err)
	}
	var ce *Error
	if !errors.As(err, &ce) || ce.File == "" {
		t.Errorf("want a *Error naming the file, got %#v", err)
	}
}

func TestDefaultsWhenNothingExists(t *testing.T) {
	_, o := testDir(t, nil, nil)
	p, err := Find("", o)
	if err != nil || p != "" {
		t.Fatalf("Find = %q, %v", p, err)
	}
	c, err := Load(p, o)
	if err != nil {
		t.Fatal(err)
	}
	if c.Path != "" || c.Dir != "" || c.Secrets != nil || len(c.Packs) != 0 || c.Limits.MaxSteps != nil {
		t.Errorf("not the defaults: %+v", c)
	}
	if !c.PackEnabled("file") {
		t.Error("packs are on by default")
	}
	if got := string(c.Effective()); !strings.Contains(got, "{}") {
		t.Errorf("Effective of defaults = %q", got)
	}
}
