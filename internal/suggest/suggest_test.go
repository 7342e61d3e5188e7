package suggest

import "testing"

func TestClosest(t *testing.T) {
	tests := []struct {
		name       string
		candidates []string
		want       string
	}{
		{"raed", []string{"copy", "delete", "edit", "read", "write"}, "read"},
		{"filepath", []string{"path", "offset", "limit"}, "path"},
		{"brave", []string{"demo", "file", "ot", "web"}, ""},
		{"dmeo", []string{"demo", "file", "ot", "web"}, "demo"},
		{"wb", []string{"demo", "file", "ot", "web"}, "web"},
		{"Read", []string{"read", "ready"}, "read"},
		{"lenn", []string{"len", "list"}, "len"},
		{"zzzzzz", []string{"read", "write"}, ""},
		{"", []string{"read"}, ""},
		{"x", []string{"a", "b"}, ""}, // one letter is no evidence of a typo
		{"x", []string{"xs"}, "xs"},
		{"x", []string{"xml", "xs"}, "xs"},
		{"x", []string{"xml"}, ""}, // a module named like it is no typo of it
		{"read", []string{"read"}, ""},
	}
	for _, tt := range tests {
		if got := Closest(tt.name, tt.candidates); got != tt.want {
			t.Errorf("Closest(%q, %q) = %q, want %q", tt.name, tt.candidates, got, tt.want)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"raed", "read", 1}, {"kitten", "sitting", 3}, {"héllo", "hello", 1},
	} {
		if got := distance(tt.a, tt.b); got != tt.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
