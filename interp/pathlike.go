package interp

// PathLike is a value that stands for a file system path, as Python's
// os.PathLike does with __fspath__: open(), os.* and pathlib.Path() accept
// one wherever they accept a str. Go values implement it (proj paths,
// pathlib.Path); a program's class gives __fspath__ instead.
type PathLike interface {
	// FSPath is the path, as os.fspath(v) returns it.
	FSPath() string
}
