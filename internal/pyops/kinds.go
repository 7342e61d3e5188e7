package pyops

import "errors"

// The kinds of error of the operations: a pack tags its error with one
// (Tag) or the runner classifies a refusal of its own as ErrDenied, and a
// module turns the kind into Python's exception (FileNotFoundError,
// requests.ConnectionError, sqlite3.IntegrityError…). Each kind's text
// is never shown: the tagged error's own text is.
var (
	// Files (the file pack's variants).
	ErrNotFound    = errors.New("no such file or directory")         // ENOENT → FileNotFoundError
	ErrExists      = errors.New("file exists")                       // EEXIST → FileExistsError
	ErrIsDir       = errors.New("is a directory")                    // EISDIR → IsADirectoryError
	ErrNotDir      = errors.New("not a directory")                   // ENOTDIR → NotADirectoryError
	ErrNotEmpty    = errors.New("directory not empty")               // ENOTEMPTY → OSError(39)
	ErrDenied      = errors.New("permission denied")                 // outside the roots, own files, read_only, policy, not confirmed → PermissionError
	ErrTooLarge    = errors.New("file too large")                    // a cap of the pack → OSError(27)
	ErrLoop        = errors.New("too many levels of symbolic links") // ELOOP → OSError(40)
	ErrNameTooLong = errors.New("file name too long")                // ENAMETOOLONG → OSError(36)
	ErrChanged     = errors.New("file changed while open")           // replaced between chunks → OSError(5)

	// The web (the web pack's variants).
	ErrHostRefused  = errors.New("host refused")       // allowed hosts, SSRF guard → ConnectionError / URLError
	ErrTimeout      = errors.New("timed out")          // → Timeout / URLError(TimeoutError)
	ErrConnect      = errors.New("connection failed")  // → ConnectionError / URLError
	ErrRedirects    = errors.New("too many redirects") // → TooManyRedirects
	ErrBadURL       = errors.New("invalid URL")        // → InvalidURL / MissingSchema / ValueError
	ErrBodyTooLarge = errors.New("body too large")     // a response past the size limit → RequestException

	// SQLite (the db pack's variants): sqlite3's exception classes.
	ErrSQLOperational  = errors.New("sqlite3.OperationalError")
	ErrSQLIntegrity    = errors.New("sqlite3.IntegrityError")
	ErrSQLProgramming  = errors.New("sqlite3.ProgrammingError")
	ErrSQLData         = errors.New("sqlite3.DataError")
	ErrSQLNotSupported = errors.New("sqlite3.NotSupportedError")
)

// Sentinel is a kind with the name by which it crosses the pipe of
// isolation: process (package runner/isolate).
type Sentinel struct {
	Name string
	Err  error
}

// Sentinels are every kind with its wire name, for the runner's table of
// errors that keep errors.Is working across the pipe.
func Sentinels() []Sentinel {
	return []Sentinel{
		{"pyops_not_found", ErrNotFound},
		{"pyops_exists", ErrExists},
		{"pyops_is_dir", ErrIsDir},
		{"pyops_not_dir", ErrNotDir},
		{"pyops_not_empty", ErrNotEmpty},
		{"pyops_denied", ErrDenied},
		{"pyops_too_large", ErrTooLarge},
		{"pyops_loop", ErrLoop},
		{"pyops_name_too_long", ErrNameTooLong},
		{"pyops_changed", ErrChanged},
		{"pyops_host_refused", ErrHostRefused},
		{"pyops_timeout", ErrTimeout},
		{"pyops_connect", ErrConnect},
		{"pyops_redirects", ErrRedirects},
		{"pyops_bad_url", ErrBadURL},
		{"pyops_body_too_large", ErrBodyTooLarge},
		{"pyops_sql_operational", ErrSQLOperational},
		{"pyops_sql_integrity", ErrSQLIntegrity},
		{"pyops_sql_programming", ErrSQLProgramming},
		{"pyops_sql_data", ErrSQLData},
		{"pyops_sql_not_supported", ErrSQLNotSupported},
	}
}

// Tag returns err marked with kind: its text stays err's, and errors.Is
// matches kind as well as everything err matches. A nil err stays nil.
//
//	return pyops.Tag(pyops.ErrNotFound, fmt.Errorf("no file %s", rel))
func Tag(kind, err error) error {
	if err == nil {
		return nil
	}
	return &tagged{kind: kind, err: err}
}

type tagged struct{ kind, err error }

func (t *tagged) Error() string   { return t.err.Error() }
func (t *tagged) Unwrap() []error { return []error{t.kind, t.err} }

// KindOf returns the kind err carries (the first in Sentinels' order
// that errors.Is finds), or nil when it has none.
func KindOf(err error) error {
	if err == nil {
		return nil
	}
	for _, s := range Sentinels() {
		if errors.Is(err, s.Err) {
			return s.Err
		}
	}
	return nil
}
