package file

import (
	"context"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/catalog"
	"github.com/onetool-dev/onetool/packs/roots"
)

// The help of file names the roots of the caller's run: the session's
// own when it has some, else those onetool was given; and says when
// there is none, and when the pack is read-only.
func TestHelpNamesRoots(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	given, err := roots.New(a, b)
	if err != nil {
		t.Fatal(err)
	}
	session, err := roots.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	help := func(o Options, ctx context.Context) string {
		reg := packs.NewRegistry()
		if err := Register(reg, o); err != nil {
			t.Fatal(err)
		}
		p, _ := reg.Pack("file")
		return catalog.PackHelp(ctx, p, catalog.Options{})
	}
	tests := []struct {
		name    string
		o       Options
		ctx     context.Context
		want    []string
		notWant []string
	}{
		{name: "given", o: Options{Roots: given}, ctx: context.Background(),
			want: []string{"\n\nRoots: " + a + " (relative paths start there), " + b + ".\n\n", "\nread(path: str"}, notWant: []string{"Read-only"}},
		{name: "the session's", o: Options{Roots: given}, ctx: roots.NewContext(context.Background(), session),
			want: []string{"\n\nRoots: " + session.Dirs()[0] + " (relative paths start there).\n\n"}, notWant: []string{a}},
		{name: "none", o: Options{Roots: roots.None("/", "onetool was started in /")}, ctx: context.Background(),
			want: []string{"No root directory is set (onetool was started in /): every path is refused; set one with --root DIR"}},
		{name: "read-only", o: Options{Roots: given, ReadOnly: true}, ctx: context.Background(),
			want: []string{"\nRead-only (packs.file.read_only): write, edit, copy, move and delete refuse."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := help(tt.o, tt.ctx)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("help lacks %q:\n%s", w, got)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(got, w) {
					t.Errorf("help has %q:\n%s", w, got)
				}
			}
			if n := len([]rune(got)); n > catalog.PackBudget {
				t.Errorf("help is %d characters, want ≤ %d:\n%s", n, catalog.PackBudget, got)
			}
		})
	}
}
