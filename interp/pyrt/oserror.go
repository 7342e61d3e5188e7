package pyrt

import (
	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
)

// OSError and its subclasses carry errno, strerror, filename and
// filename2, and read as CPython's "[Errno 2] No such file or directory:
// 'notes.md'", whether a module raised them (OSError, for open, os and
// pathlib) or a program did (raise OSError(2, 'msg', 'f')).

// OSError returns the error of a raised instance of class, a builtin
// subclass of OSError ("FileNotFoundError", "PermissionError"…; "" picks
// it from errno as CPython's OSError(errno, …) does), as the modules of
// package stdlib raise it for a failed file operation:
//
//	pyrt.OSError("", 2, "No such file or directory", "notes.md")
//	// FileNotFoundError: [Errno 2] No such file or directory: 'notes.md'
//
// filename "" leaves it out ("[Errno 13] msg"); a filename2 gives
// "'a' -> 'b'", as for rename. args are (errno, strerror), and the
// instance has errno, strerror, filename and filename2 (None when not
// given), as in CPython.
func OSError(class string, errno int, strerror, filename string, filename2 ...string) error {
	return OSErrorFrom(nil, class, errno, strerror, filename, filename2...)
}

// OSErrorFrom is OSError raised for the Go error cause, which the
// exception wraps: errors.Is(err, roots.ErrProtected) holds for the
// PermissionError of a refused path wherever the run's error goes.
func OSErrorFrom(cause error, class string, errno int, strerror, filename string, filename2 ...string) error {
	c := BuiltinClass(class)
	if class == "" || c == nil || !c.IsSubclass(BuiltinClass("OSError")) {
		c = osErrorClass(BuiltinClass("OSError"), starlark.MakeInt(errno))
	}
	args := starlark.Tuple{starlark.MakeInt(errno), interp.MakeString(strerror)}
	if filename != "" {
		args = append(args, interp.MakeString(filename))
		if len(filename2) > 0 && filename2[0] != "" {
			args = append(args, starlark.None, interp.MakeString(filename2[0]))
		}
	}
	e := &ExcValue{class: c, args: args, goCause: cause}
	e.osInit()
	return e.Error()
}

// osErrnoClasses are the subclasses CPython's OSError(errno, …) makes
// for an errno (PEP 3151), on Linux.
var osErrnoClasses = map[int64]string{
	1: "PermissionError", 13: "PermissionError",
	2:  "FileNotFoundError",
	3:  "ProcessLookupError",
	4:  "InterruptedError",
	10: "ChildProcessError",
	11: "BlockingIOError", 114: "BlockingIOError", 115: "BlockingIOError",
	17: "FileExistsError",
	20: "NotADirectoryError",
	21: "IsADirectoryError",
	32: "BrokenPipeError", 108: "BrokenPipeError",
	103: "ConnectionAbortedError",
	104: "ConnectionResetError",
	110: "TimeoutError",
	111: "ConnectionRefusedError",
}

// osErrorClass is the class OSError(errno, …) makes: a subclass for a
// known errno when c is OSError itself, else c.
func osErrorClass(c *ExcClass, errno starlark.Value) *ExcClass {
	if c.name != "OSError" || !c.builtin {
		return c
	}
	if n, ok := errno.(starlark.Int); ok {
		if i, ok := n.Int64(); ok {
			if sub := BuiltinClass(osErrnoClasses[i]); sub != nil {
				return sub
			}
		}
	}
	return c
}

// isOSError reports whether c is OSError or derives from it.
func isOSError(c *ExcClass) bool {
	return c != nil && c.IsSubclass(BuiltinClass("OSError"))
}

// osInit gives an instance of an OSError class its attributes and text
// from its arguments, as CPython's OSError.__init__: with 2 to 5
// arguments, errno and strerror are the first two; a third that is not
// None is filename, and then a fifth is filename2 and args keep only
// the first two.
func (e *ExcValue) osInit() {
	none := starlark.Value(starlark.None)
	errno, strerror, filename, filename2 := none, none, none, none
	if n := len(e.args); n >= 2 && n <= 5 {
		errno, strerror = e.args[0], e.args[1]
		if n >= 3 && e.args[2] != starlark.None {
			filename = e.args[2]
			if n == 5 {
				filename2 = e.args[4]
			}
			e.args = e.args[:2:2]
		}
		text, err := interp.Str(nil, errno)
		if err != nil {
			return
		}
		s, err := interp.Str(nil, strerror)
		if err != nil {
			return
		}
		text = "[Errno " + text + "] " + s
		if filename != starlark.None {
			r, err := interp.Repr(nil, filename)
			if err != nil {
				return
			}
			text += ": " + r
			if filename2 != starlark.None {
				if r, err = interp.Repr(nil, filename2); err != nil {
					return
				}
				text += " -> " + r
			}
		}
		e.text = text
	}
	if e.attrs == nil {
		e.attrs = make(starlark.StringDict, 4)
	}
	e.attrs["errno"], e.attrs["strerror"], e.attrs["filename"], e.attrs["filename2"] = errno, strerror, filename, filename2
}

// osAttr is an attribute every OSError has, None when its arguments did
// not give it (an instance raised without arguments); nil for others.
func (e *ExcValue) osAttr(name string) starlark.Value {
	switch name {
	case "errno", "strerror", "filename", "filename2":
		if isOSError(e.class) {
			return starlark.None
		}
	}
	return nil
}

// argAt is args[i], or None past its end.
func argAt(args starlark.Tuple, i int) starlark.Value {
	if i < len(args) {
		return args[i]
	}
	return starlark.None
}
