package runner

import (
	"context"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/packs"
)

// A Confirmer sees the call with secret values hidden (SPEC §8.3): the
// question is shown to a person, on a terminal or in an MCP client, and
// may be logged. Question names the tool and its arguments, each cut.
func TestConfirmRequestRedacted(t *testing.T) {
	reg := packs.NewRegistry()
	if err := reg.Register(&packs.Tool{
		Pack: "disk", Name: "wipe", Description: "Delete everything.",
		Annotations: packs.Annotations{Destructive: true},
		InputSchema: `{"type":"object","properties":{"path":{"type":"string"},"note":{"type":"string"}},"required":["path"]}`,
		Handler:     func(context.Context, map[string]any) (any, error) { return "wiped", nil },
	}); err != nil {
		t.Fatal(err)
	}
	cfg := secretConfig(t, "security:\n  confirm_destructive: true\n")
	r := newRunner(t, WithRegistry(reg), WithConfig(cfg))
	var asked string
	res := r.Exec(context.Background(), `disk.wipe(path="/tmp/x", note="token sk-live-" + "0123456789abcdef " + "y" * 200)`,
		ConfirmWith(func(_ context.Context, c ConfirmRequest) error { asked = c.Question(); return nil }))
	if res.IsError() {
		t.Fatal(res.Text)
	}
	want := `onetool wants to run disk.wipe(note="token [secret:API_TOKEN] ` + strings.Repeat("y", 80-len(`"token [secret:API_TOKEN] `)) + `…, path="/tmp/x"), which is marked destructive: it may overwrite or delete. Allow it?`
	if asked != want {
		t.Errorf("question:\n%s\nwant:\n%s", asked, want)
	}
}
