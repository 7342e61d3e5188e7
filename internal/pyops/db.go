package pyops

// The db pack's variants: what Python's sqlite3 module does, each counted
// as the public db tool named before the "@". A connection is held by the
// pack in the run's Scope (packs.Scope) from DBConnect until DBEnd closes
// it or the run ends (then it is rolled back and closed, never pooled);
// every statement on it runs under the db pack's own authorizer, guard,
// confirmation, budget and timeout, as db.query's and db.execute's do.
//
// Errors carry one of ErrSQLOperational, ErrSQLIntegrity,
// ErrSQLProgramming, ErrSQLData, ErrSQLNotSupported (sqlite3's classes),
// with SQLite's or the pack's message as their text.
const (
	// DBConnect opens a held connection to a configured database.
	// args: "target" string: a name in packs.db.databases, or a path
	// (relative to Facts.Cwd) whose real path is a configured SQLite file;
	// ":memory:" only when a memory database is configured. Anything else
	// fails with ErrSQLOperational naming the configured databases.
	// result: "conn" int64 (the connection's id in this run), "name"
	// string, "read_only" bool.
	DBConnect = "db.query@connect"

	// DBRun runs one statement on a held connection (Cursor.execute,
	// executemany). args: "conn" int64, "sql" string, "params" ([]any
	// for ? placeholders, or map[string]any for :name, @name and $name),
	// "many" []any (executemany: each element is one params), "begin"
	// bool and "level" string (Python 3.11's legacy transaction control:
	// BEGIN <level> first when the connection is not in a transaction).
	// Values: nil, bool, int64, float64, string, and bytes as a map
	// (PutContent). result: "columns" []any of names (empty for a
	// statement that returns no rows), "decltypes" []any, "rows" []any of
	// []any (bytes as PutContent maps), "rowcount" int64 (rows changed:
	// sqlite3_changes, summed over many), "lastrowid" int64
	// (last_insert_rowid), "in_transaction" bool, "total_changes" int64
	// (sqlite3_total_changes).
	DBRun = "db.query@run"

	// DBScript is Cursor.executescript: COMMIT first when a transaction
	// is open, then every statement of "sql". Counted as db.execute (and
	// confirmed as it is). args: "conn" int64, "sql" string. result:
	// "in_transaction" bool, "total_changes" int64.
	DBScript = "db.execute@script"

	// DBEnd ends a held connection's transaction or the connection.
	// args: "conn" int64, "action" ("commit", "rollback" or "close").
	// result: "in_transaction" bool, "total_changes" int64 (absent for close).
	DBEnd = "db.query@end"
)

// SQLiteVersion is the version of the SQLite the db pack links
// (sqlite3.sqlite_version); a test of the db pack keeps it true.
const SQLiteVersion = "3.54.1"
