package snippets

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseInvocation(t *testing.T) {
	type args = []Arg
	tests := []struct {
		name string
		text string
		want Invocation
	}{
		{"name only", "$pkg", Invocation{Name: "pkg"}},
		{"surrounding whitespace", "  $pkg  \n", Invocation{Name: "pkg"}},
		{"spec example", "$pkg packages=react,vue limit=1",
			Invocation{"pkg", args{{"packages", "react,vue"}, {"limit", "1"}}}},
		{"unquoted value runs to next key", "$s q=hello world n=3",
			Invocation{"s", args{{"q", "hello world"}, {"n", "3"}}}},
		{"unquoted value trimmed", "$s q=   spaced out   n=1",
			Invocation{"s", args{{"q", "spaced out"}, {"n", "1"}}}},
		{"tabs separate", "$s\tq=a\tn=1", Invocation{"s", args{{"q", "a"}, {"n", "1"}}}},
		{"double quotes", `$s q="v w" n=1`, Invocation{"s", args{{"q", "v w"}, {"n", "1"}}}},
		{"single quotes", `$s q='v w'`, Invocation{"s", args{{"q", "v w"}}}},
		{"quoted value keeps = and spaces", `$s expr="a = b c=d"`, Invocation{"s", args{{"expr", "a = b c=d"}}}},
		{"quoted value keeps padding", `$s q="  x  "`, Invocation{"s", args{{"q", "  x  "}}}},
		{"escaped double quote", `$s q="say \"hi\""`, Invocation{"s", args{{"q", `say "hi"`}}}},
		{"escaped single quote", `$s q='it\'s'`, Invocation{"s", args{{"q", "it's"}}}},
		{"other quote inside", `$s q="it's" r='say "x"'`, Invocation{"s", args{{"q", "it's"}, {"r", `say "x"`}}}},
		{"escaped backslash", `$s q="a\\"`, Invocation{"s", args{{"q", `a\`}}}},
		{"backslash kept in quotes", `$s q="C:\temp\new"`, Invocation{"s", args{{"q", `C:\temp\new`}}}},
		{"backslash kept unquoted", `$s q=C:\temp`, Invocation{"s", args{{"q", `C:\temp`}}}},
		{"escaped equals unquoted", `$s q=a\=b`, Invocation{"s", args{{"q", "a=b"}}}},
		{"escaped equals does not start a key", `$s q=hello x\=1 n=2`,
			Invocation{"s", args{{"q", "hello x=1"}, {"n", "2"}}}},
		{"escaped equals in quotes", `$s q="a\=b"`, Invocation{"s", args{{"q", "a=b"}}}},
		{"equals inside unquoted value", "$s url=http://x/?a=b&c=d n=1",
			Invocation{"s", args{{"url", "http://x/?a=b&c=d"}, {"n", "1"}}}},
		{"space before = is not a key", "$s q=a b =c", Invocation{"s", args{{"q", "a b =c"}}}},
		{"empty value", "$s q= n=1", Invocation{"s", args{{"q", ""}, {"n", "1"}}}},
		{"empty value at end", "$s q=", Invocation{"s", args{{"q", ""}}}},
		{"empty quoted", `$s q="" n=1`, Invocation{"s", args{{"q", ""}, {"n", "1"}}}},
		{"space before quote", `$s q= "x y"`, Invocation{"s", args{{"q", "x y"}}}},
		{"quoted newline", "$s q=\"a\nb\" n=1", Invocation{"s", args{{"q", "a\nb"}, {"n", "1"}}}},
		{"pairs continue on next line", "$pkg packages=react,vue\n     limit=3",
			Invocation{"pkg", args{{"packages", "react,vue"}, {"limit", "3"}}}},
		{"hyphenated name", "$my-snip x=1", Invocation{"my-snip", args{{"x", "1"}}}},
		{"underscore name", "$_x9 x=1", Invocation{"_x9", args{{"x", "1"}}}},
		{"hyphenated key", "$s max-results=3", Invocation{"s", args{{"max-results", "3"}}}},
		{"unicode value", "$s q=héllo wörld ✓", Invocation{"s", args{{"q", "héllo wörld ✓"}}}},

		{"block form", "$pkg\npackages: react, vue\nlimit: 3",
			Invocation{"pkg", args{{"packages", "react, vue"}, {"limit", "3"}}}},
		{"block form blank lines and padding", "$pkg   \n\n   packages:   react  \n\n\tlimit:3\n",
			Invocation{"pkg", args{{"packages", "react"}, {"limit", "3"}}}},
		{"block value keeps colons", "$s\nurl: http://localhost:8080/x?a=b",
			Invocation{"s", args{{"url", "http://localhost:8080/x?a=b"}}}},
		{"block value with spaces and =", "$s\nq: hello world n=3",
			Invocation{"s", args{{"q", "hello world n=3"}}}},
		{"block quoted value", "$s\nq: \"  padded  \"\nr: 'x'",
			Invocation{"s", args{{"q", "  padded  "}, {"r", "x"}}}},
		{"block escaped equals", "$s\nq: a\\=b", Invocation{"s", args{{"q", "a=b"}}}},
		{"block empty value", "$s\nq:", Invocation{"s", args{{"q", ""}}}},
		{"block key spacing", "$s\n  q  : v", Invocation{"s", args{{"q", "v"}}}},
		{"block CRLF", "$s\r\nq: 1\r\nn: 2\r\n", Invocation{"s", args{{"q", "1"}, {"n", "2"}}}},
		{"block inner quote kept", "$s\nq: it's", Invocation{"s", args{{"q", "it's"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseInvocation(tt.text)
			if err != nil {
				t.Fatalf("ParseInvocation(%q): %v", tt.text, err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("ParseInvocation(%q)\n got %#v\nwant %#v", tt.text, got, tt.want)
			}
			// The canonical form reads back as the same invocation.
			again, err := ParseInvocation(got.String())
			if err != nil || !reflect.DeepEqual(again, got) {
				t.Fatalf("round trip of %q via %q: %#v, %v", tt.text, got.String(), again, err)
			}
		})
	}
}

func TestParseInvocationErrors(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"empty", "", "snippet invocation: expected '$name' at the start, got ''"},
		{"no dollar", "pkg x=1", "snippet invocation: expected '$name' at the start, got 'pkg x=1'"},
		{"dollar only", "$", "snippet invocation: expected a snippet name after '$', as in '$name key=value'"},
		{"space after dollar", "$ x", "snippet invocation: expected a snippet name right after '$' (a letter or '_', then letters, digits, '_' or '-'), got ' x'"},
		{"digit first", "$1x", "got '1x'"},
		{"bad char after name", "$pkg(1)", "snippet invocation: unexpected '(' after '$pkg'"},
		{"unicode after name", "$pkgé", "unexpected 'é' after '$pkg'"},
		{"bare word", "$pkg foo", "snippet invocation: expected key=value after '$pkg', got 'foo'"},
		{"bare word after pair on next line", "$pkg q=1\nfoo bar", "snippet invocation: expected key=value after '$pkg', got 'foo'"},
		{"key: value on the first line", "$pkg q: 1", "expected key=value after '$pkg', got 'q:'"},
		{"no key", "$pkg =x", "expected key=value after '$pkg', got '=x'"},
		{"unterminated double", `$s q="abc`, `snippet invocation: unterminated " quote in the value of 'q': add the closing "`},
		{"unterminated single", `$s q='abc n=1`, `unterminated ' quote in the value of 'q'`},
		{"escaped closing quote", `$s q="abc\"`, `unterminated " quote`},
		{"text after closing quote", `$s q="a"b`, `snippet invocation: expected a space after the closing quote of 'q', got 'b'`},
		{"duplicate key", "$s q=1 q=2", "snippet invocation: parameter 'q' is given twice"},
		{"block line without colon", "$s\nfoo", "snippet invocation: expected 'key: value' on line 2 of '$s', got 'foo'"},
		{"block line number", "$s\nq: 1\n\nfoo bar", "on line 4 of '$s', got 'foo bar'"},
		{"block key=value hint", "$s\nq=1", "got 'q=1' (below '$s' each line is 'key: value'; key=value pairs go on the first line, after the name)"},
		{"block bad key", "$s\nmy key: 1", "expected 'key: value' on line 2 of '$s', got 'my key: 1'"},
		{"block empty key", "$s\n: 1", "expected 'key: value' on line 2"},
		{"block unterminated", "$s\nq: \"abc", `unterminated " quote in the value of 'q' on line 2`},
		{"block text after quote", "$s\nq: \"a\" b", `snippet invocation: unexpected ' b' after the closing quote of 'q' on line 2`},
		{"block duplicate", "$s\nq: 1\nq: 2", "parameter 'q' is given twice"},
		{"long excerpt", "$s " + strings.Repeat("x", 100), "got '" + strings.Repeat("x", 40) + "…'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseInvocation(tt.text)
			if err == nil {
				t.Fatalf("ParseInvocation(%q) = %#v, want error containing %q", tt.text, got, tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("ParseInvocation(%q) error\n got %q\nwant it to contain %q", tt.text, err, tt.want)
			}
			if !strings.HasPrefix(err.Error(), "snippet invocation: ") {
				t.Errorf("error %q lacks the 'snippet invocation: ' prefix", err)
			}
		})
	}
}

func TestInvocationString(t *testing.T) {
	inv := Invocation{"s", []Arg{{"a", "plain"}, {"b", "two words"}, {"c", `q"uo\te`}, {"d", ""}, {"e", "x=y"}}}
	want := `$s a=plain b="two words" c="q\"uo\\te" d="" e="x=y"`
	if got := inv.String(); got != want {
		t.Fatalf("String() = %s, want %s", got, want)
	}
}
