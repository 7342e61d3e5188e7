package pyrt

import (
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/interp"
)

// A try statement is one function whose first argument picks the part
// (lower_try.go): what a user sees is what CPython prints for each shape
// that layout could get wrong. The wants are CPython 3.11's output.
func TestTryPartsAsInPython(t *testing.T) {
	tests := []struct{ name, code, want string }{
		{"handler classes are looked up only when the body raises",
			"def f():\n    try:\n        return 1\n    except Undefined:\n        return 2\nprint(f())", "1"},
		{"a bad class is a TypeError only when the body raises",
			"def f(x):\n    try:\n        if x: raise ValueError('v')\n        return 'ok'\n    except 42:\n        return 'no'\nprint(f(0))\ntry:\n    f(1)\nexcept TypeError as t:\n    print(t)",
			"ok\ncatching classes that do not inherit from BaseException is not allowed"},
		{"the body reads the enclosing variable a handler binds",
			"def f():\n    e = 5\n    out = []\n    for i in range(2):\n        try:\n            out.append(e)\n            if i == 1: raise ValueError('v')\n        except ValueError as e:\n            out.append(str(e))\n    return out\nprint(f())",
			"[5, 5, 'v']"},
		{"two handlers bind the same name",
			"def f(x):\n    try:\n        raise (KeyError if x else ValueError)('k')\n    except KeyError as e:\n        return 'key ' + str(e)\n    except ValueError as e:\n        return 'value ' + str(e)\nprint(f(1), f(0))",
			"key 'k' value k"},
		{"one handler of a tuple of classes, by base",
			"try:\n    raise KeyError('x')\nexcept (TypeError, LookupError) as e:\n    print(type(e).__name__, e)",
			"KeyError 'x'"},
		{"no handler matches: finally runs and the exception goes on",
			"def f():\n    try:\n        raise KeyError('k')\n    except ValueError:\n        print('no')\n    finally:\n        print('fin')\ntry:\n    f()\nexcept KeyError as e:\n    print('outer', repr(e))",
			"fin\nouter KeyError('k')"},
		{"else, finally and continue, break, return out of the parts",
			"def f():\n    out = []\n    for i in range(5):\n        try:\n            if i == 1: raise ValueError(i)\n            if i == 2: continue\n            if i == 4: break\n        except ValueError as e:\n            out.append('h%s' % e)\n            continue\n        else:\n            out.append('else%d' % i)\n        finally:\n            out.append('fin%d' % i)\n    try:\n        return out\n    finally:\n        out.append('last')\nprint(f())",
			"['else0', 'fin0', 'h1', 'fin1', 'fin2', 'else3', 'fin3', 'fin4', 'last']"},
		{"a handler's exception has the caught one as its context",
			"try:\n    try:\n        1 / 0\n    except ZeroDivisionError:\n        raise ValueError('inner')\nexcept ValueError as v:\n    print(repr(v), repr(v.__context__))",
			"ValueError('inner') ZeroDivisionError('division by zero')"},
		{"a bare raise in a handler re-raises the caught exception, not the rebound name",
			"try:\n    try:\n        raise KeyError('a')\n    except KeyError as e:\n        e = 3\n        raise\nexcept KeyError as e2:\n    print(repr(e2))",
			"KeyError('a')"},
		{"a name only in a string of the body: the handler is a function of its own",
			"def f():\n    try:\n        print('e')\n        raise ValueError('x')\n    except ValueError as e:\n        print(e)\nf()",
			"e\nx"},
	}
	for _, tt := range tests {
		res, err := run(t, tt.code, interp.Options{})
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got := strings.TrimSpace(res.Printed); got != tt.want {
			t.Errorf("%s: printed\n%s\nwant\n%s", tt.name, got, tt.want)
		}
	}
}

// A spent budget passes every part of a try statement: no handler catches
// it, and a finally that would drop an exception (return, break,
// continue) does not run, whichever part was running when it ran out.
func TestTryPartsPassSpentBudgets(t *testing.T) {
	loop := "        while True:\n            pass\n"
	for _, where := range []string{"body", "handler", "else", "finally"} {
		parts := map[string]string{"body": "        pass\n", "handler": "        pass\n", "else": "        pass\n", "finally": "        return 'dropped'\n"}
		if where == "body" {
			parts[where] = loop
		} else {
			parts["body"] = "        raise ValueError('v')\n"
			if where == "else" {
				parts["body"] = "        pass\n"
			}
			parts[where] = loop + parts[where]
		}
		code := "def f():\n    for i in range(3):\n        try:\n" + indent(parts["body"]) +
			"        except BaseException:\n" + indent(parts["handler"]) + "            continue\n" +
			"        else:\n" + indent(parts["else"]) +
			"        finally:\n" + indent(parts["finally"]) + "print(f())\n"
		res, err := run(t, code, interp.Options{MaxSteps: 100000})
		if err == nil || !strings.Contains(err.Error(), "step") {
			printed := ""
			if res != nil {
				printed = res.Printed
			}
			t.Errorf("budget spent in the %s: error %v, printed %q; want the step limit's error", where, err, printed)
		}
	}
}

// indent puts each line of s four spaces further in.
func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n    ") + "\n"
}
