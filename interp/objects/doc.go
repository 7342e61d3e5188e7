// Package objects is onetool's Python object model: the classes a
// program defines with a class statement, their instances, and the rules
// by which they behave as CPython's do (the data model of the Python
// reference, "3. Data model").
//
// The Python front end (package python) lowers a class statement to a
// function that runs the class body and returns its namespace, and a call
// of a helper of this package that makes the class from it:
//
//	class Point(Base):              def __ot_body():
//	    dims = 2              →         ...
//	    def norm(self): ...             return (cell, names, annotations)
//	                                Point = __ot_class("Point", "Point", __ot_body, (Base,), {})
//
// A Class keeps its namespace in definition order and its method
// resolution order, computed by C3 linearization as CPython computes
// it. An Instance keeps its attributes in a dict of its own; reading one
// follows CPython's order: a data descriptor of the class (a property),
// then the instance's dict, then the class's attribute (a function read
// so binds to the instance), then __getattr__.
//
// Instances are go.starlark.net values: the interpreter compares, hashes,
// iterates, indexes and calls them through its interfaces, and each of
// those calls the special method the class defines (__eq__, __hash__,
// __iter__, __getitem__, __call__). Those interfaces take no thread, so
// a class holds the interp.Host of the run that made it, which gives the
// thread running the program now; special methods run on it, charged to
// the run's budget like every other call, and nested calls from Go are
// bounded (maxSpecialDepth) so that a __repr__ or __eq__ that recurses
// ends with RecursionError instead of exhausting the Go stack.
//
// Subclasses of builtin types hold a value of the builtin type (a dict
// for class Registry(dict)) that the methods the class does not define
// act on. Subclasses of exception classes hold the exception state
// (pyrt.ExcValue) that raise and except use.
//
// This package sits above package python: it uses the runtime's
// exceptions and protocols, and its builtins (Builtins) are merged over
// the runtime's by package stdlib.
package objects
