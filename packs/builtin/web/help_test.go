package web

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/catalog"
)

// The help of web names the hosts it may fetch, never the deny list.
func TestHelpNamesHosts(t *testing.T) {
	many := make([]string, 30)
	for i := range many {
		many[i] = fmt.Sprintf("h%02d.example.com", i)
	}
	tests := []struct {
		allow, deny []string
		want        string
	}{
		{nil, nil, "\n\nHosts: any public host (private and local addresses only when packs.web.allow_hosts names them).\n\n"},
		{[]string{"*"}, []string{"bad.example.com"}, "\n\nHosts: any public host (private"},
		{[]string{"example.com", "*.docs.rs", "10.0.0.0/8"}, nil, "\n\nHosts: only example.com, *.docs.rs, 10.0.0.0/8 (packs.web.allow_hosts).\n\n"},
		{[]string{"*", "localhost"}, nil, "\n\nHosts: any public host, and localhost (packs.web.allow_hosts).\n\n"},
		{many, nil, ", h19.example.com, and 10 more (packs.web.allow_hosts)."},
	}
	for _, tt := range tests {
		reg := packs.NewRegistry()
		if err := Register(reg, Options{AllowHosts: tt.allow, DenyHosts: tt.deny}); err != nil {
			t.Fatal(err)
		}
		p, _ := reg.Pack("web")
		got := catalog.PackHelp(context.Background(), p, catalog.Options{})
		if !strings.Contains(got, tt.want) || strings.Contains(got, "bad.example.com") {
			t.Errorf("allow %v, deny %v: help lacks %q (or names a denied host):\n%s", tt.allow, tt.deny, tt.want, got)
		}
		if !strings.Contains(got, "\nfetch(url: str, format: Literal[\"markdown\", \"text\", \"raw\"] = \"markdown\"") {
			t.Errorf("help lacks fetch's stub:\n%s", got)
		}
	}
}
