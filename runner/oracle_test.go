package runner

import (
	"context"
	"database/sql"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// A secret that sits in the data a program may open — a .env file in the
// project, a settings table — does not enter the program through the
// answers of a search or of SQL that computes on it (red-team finding
// F3): grep matches the text with its secrets hidden, so a pattern that
// follows the secret a character at a time finds nothing; db results hide
// every piece of eight characters or more, in any case. The program hands
// back what it learned as hex, which exit redaction would not recognise.
// In-process and isolated.
func TestSecretsInDataAreNoOracle(t *testing.T) {
	const secret = "tok-9a8b7c6d5e" // ownWork's api_token
	for _, isolate := range []bool{false, true} {
		t.Run(fmt.Sprintf("isolated=%v", isolate), func(t *testing.T) {
			if isolate && testing.Short() {
				t.Skip("starts workers")
			}
			work, load := ownWork(t, "packs: {db: {databases: {main: \"sqlite:../settings.db\"}}}\n")
			writeAll(t, work, ".env", "API_TOKEN="+secret+"\nDEBUG=1\n")
			db, err := sql.Open("sqlite", filepath.Join(work, "settings.db"))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec("CREATE TABLE s (k, v); INSERT INTO s VALUES ('token', ?)", secret); err != nil {
				t.Fatal(err)
			}
			db.Close()
			opts := []Option{WithConfig(load())}
			if isolate {
				opts = append(opts, WithIsolation(Isolation{Workers: 1}))
			}
			r := newRunner(t, opts...)
			defer r.Close()

			oracle := `import re
known = 'API_TOKEN='
for _ in range(20):
    found = False
    for c in 'abcdefghijklmnopqrstuvwxyz0123456789-_':
        if file.grep(pattern=re.escape(known + c), path='.env'):
            known += c
            found = True
            break
    if not found:
        break
[known.encode().hex(), len(file.grep(pattern='DEBUG', path='.env'))]`
			res := r.Exec(context.Background(), oracle)
			if res.IsError() {
				t.Fatal(res.Text)
			}
			if got := decodedHex(res.Text); strings.Contains(got, "tok-") {
				t.Errorf("the grep oracle recovered %q", got)
			}
			if !strings.HasSuffix(res.Text, ",1]") {
				t.Errorf("grep no longer finds ordinary text: %s", res.Text)
			}
			// Stored in another case, the secret is hidden as well.
			writeAll(t, work, "upper.txt", "TOKEN="+strings.ToUpper(secret)+"\n")
			res = r.Exec(context.Background(), `[file.read("upper.txt").encode().hex(), len(file.grep(pattern="TOK-9A", path="upper.txt"))]`)
			if got := decodedHex(res.Text); res.IsError() || strings.Contains(strings.ToLower(got), secret) || !strings.HasSuffix(res.Text, ",0]") {
				t.Errorf("a secret in upper case: %s (%s)", res.Text, got)
			}

			sqlProg := `rows = db.query(sql="SELECT substr(v, 1, 10) AS a, upper(v) AS b, lower(upper(v)) AS c, replace(v, '-', '') AS d FROM s")
[x.encode().hex() for x in rows[0].values()]`
			res = r.Exec(context.Background(), sqlProg)
			if res.IsError() {
				t.Fatal(res.Text)
			}
			got := decodedHex(res.Text)
			t.Logf("the program got %s", got)
			for _, piece := range []string{secret[:10], strings.ToUpper(secret), secret, strings.ReplaceAll(secret, "-", "")} {
				if strings.Contains(strings.ToLower(got), strings.ToLower(piece)) {
					t.Errorf("SQL handed the program %q: %s", piece, got)
				}
			}
		})
	}
}

// decodedHex is the text of every quoted hex string in a JSON result.
func decodedHex(text string) string {
	var out []string
	for _, f := range strings.Split(text, `"`) {
		if b, err := hex.DecodeString(f); err == nil && len(b) > 0 {
			out = append(out, string(b))
		}
	}
	return strings.Join(out, " | ")
}
