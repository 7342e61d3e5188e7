package pyrt

import (
	"errors"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/interp"
)

// OSError's arguments, attributes, text and errno subclass are CPython
// 3.11's, for an exception a program makes (the wants are CPython's
// output of the same program).
func TestOSErrorAsInPython(t *testing.T) {
	code := `e = OSError(2, 'No such file or directory', 'x')
print(type(e).__name__, e.args, e, repr(e), e.errno, e.strerror, e.filename, e.filename2)
e = OSError(2, 'No such file or directory', 'a', None, 'b')
print(type(e).__name__, e.args, e, e.filename2)
e = OSError(2, 'msg', None)
print(e.args, e, e.filename)
e = OSError('x')
print(type(e).__name__, e.args, e, e.errno, e.strerror, e.filename)
e = OSError(1, 2, 3, 4, 5, 6)
print(e.args, e, e.errno)
e = FileNotFoundError(13, 'Permission denied', 'p')
print(type(e).__name__, e)
e = OSError(13, 'Permission denied', 'p')
print(type(e).__name__, isinstance(e, PermissionError), isinstance(e, OSError), e)
print(type(OSError(17, 'm')).__name__, type(OSError(99, 'm')).__name__, type(IOError(2, 'm')).__name__)
e = PermissionError()
print(e.errno, repr(str(e)))
try:
    raise OSError(2, 'No such file or directory', 'data.csv')
except FileNotFoundError as e:
    print('caught', e, e.filename)
try:
    raise FileExistsError(17, 'File exists', 'a', None, 'b')
except OSError as e:
    print('caught', type(e).__name__, e)
`
	want := `FileNotFoundError (2, 'No such file or directory') [Errno 2] No such file or directory: 'x' FileNotFoundError(2, 'No such file or directory') 2 No such file or directory x None
FileNotFoundError (2, 'No such file or directory') [Errno 2] No such file or directory: 'a' -> 'b' b
(2, 'msg', None) [Errno 2] msg None
OSError ('x',) x None None None
(1, 2, 3, 4, 5, 6) (1, 2, 3, 4, 5, 6) None
FileNotFoundError [Errno 13] Permission denied: 'p'
PermissionError True True [Errno 13] Permission denied: 'p'
FileExistsError OSError FileNotFoundError
None ''
caught [Errno 2] No such file or directory: 'data.csv' data.csv
caught FileExistsError [Errno 17] File exists: 'a' -> 'b'`
	res, err := run(t, code, interp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Printed != want {
		t.Errorf("printed\n%s\nwant\n%s", res.Printed, want)
	}
	_, err = run(t, "raise OSError(2, 'No such file or directory', 'x')", interp.Options{Explain: Explain})
	if err == nil || !strings.HasSuffix(err.Error(), "FileNotFoundError: [Errno 2] No such file or directory: 'x'") {
		t.Errorf("uncaught: %v", err)
	}
}

// pyrt.OSError, as the modules raise it: the class from errno or given,
// CPython's text, and the attributes a handler reads.
func TestOSErrorFromGo(t *testing.T) {
	for _, c := range []struct {
		err             error
		class, text     string
		errno, filename string
	}{
		{OSError("", 2, "No such file or directory", "notes.md"), "FileNotFoundError", "[Errno 2] No such file or directory: 'notes.md'", "2", "notes.md"},
		{OSError("PermissionError", 13, "Permission denied", ""), "PermissionError", "[Errno 13] Permission denied", "13", "None"},
		{OSError("", 18, "Invalid cross-device link", "a", "b"), "OSError", "[Errno 18] Invalid cross-device link: 'a' -> 'b'", "18", "a"},
		{OSError("ValueError", 39, "Directory not empty", "d"), "OSError", "[Errno 39] Directory not empty: 'd'", "39", "d"},
		{OSError("IsADirectoryError", 21, "Is a directory", "it's"), "IsADirectoryError", `[Errno 21] Is a directory: "it's"`, "21", "it's"},
	} {
		var ex *Exception
		if !errors.As(c.err, &ex) || ex.Class != c.class || ex.Msg != c.text || c.err.Error() != c.class+": "+c.text {
			t.Errorf("%v: want %s: %s", c.err, c.class, c.text)
			continue
		}
		for name, want := range map[string]string{"errno": c.errno, "filename": c.filename} {
			v, _ := ex.Value.Attr(name)
			if s, _ := interp.Str(nil, v); s != want {
				t.Errorf("%s.%s = %v, want %s", c.class, name, v, want)
			}
		}
	}
}
