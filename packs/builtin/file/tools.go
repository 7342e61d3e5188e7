package file

import (
	"fmt"

	"github.com/onetool-dev/onetool/packs"
)

var (
	readOnly    = packs.Annotations{ReadOnly: true}
	destructive = packs.Annotations{Destructive: true}
)

// pathsNote ends every description that takes paths.
const pathsNote = " Paths (relative or absolute) must lead inside the allowed roots, links followed; onetool's own files (any .onetool directory, the configuration, secrets, toolpacks) are refused and left out of listings."

// backupsNoteFor ends the descriptions of tools that overwrite or delete.
func backupsNoteFor(o Options, ret Retention) string {
	if !o.Backups {
		return " No backup is kept (packs.file.backups: false)."
	}
	return fmt.Sprintf(" What is replaced or deleted is kept in .onetool/backups/<time>-<tool>/ under its root (every backup younger than %s, and the last %d of each file); the user restores from there (programs cannot reach it).",
		keepForText(ret.KeepFor), ret.Versions)
}

// Tools returns new file pack tools for o, ready to register.
func Tools(o Options) []*packs.Tool { return newPack(o).tools() }

// tools returns the pack's tools over p's state.
func (p *pack) tools() []*packs.Tool {
	o := p.o
	backupsNote := backupsNoteFor(o, p.retention)
	return []*packs.Tool{
		{
			Pack: "file", Name: "read",
			Description: "Read a text file's lines, exactly as stored: `offset` is the first line (1-based), `limit` how many. " +
				"When lines remain, the result ends with the next call, e.g. `… (120 more lines: file.read(path=\"x\", offset=2001))`. " +
				"Lines over 8000 bytes are cut; binary files and files over 32 MiB are refused (use file.grep, file.info)." + pathsNote,
			InputSchema: `{"type":"object","properties":{
				"path":{"type":"string","description":"The file to read."},
				"offset":{"type":"integer","minimum":1,"default":1,"description":"First line to return, counting from 1."},
				"limit":{"type":"integer","minimum":1,"default":2000,"description":"Most lines to return."}},
				"required":["path"],"additionalProperties":false}`,
			Returns: "str",
			Examples: []packs.Example{
				{Code: `file.read(path="README.md")`, Description: "The first 2000 lines"},
				{Code: `file.read("main.go", offset=100, limit=20)`, Description: "Lines 100 to 119"},
			},
			Annotations: readOnly,
			Handler:     p.wrap((*pack).read),
		},
		{
			Pack: "file", Name: "write",
			Description: "Write text to a file, creating it (and missing parent directories) or replacing it whole; with append=True, add to its end. " +
				"The write is atomic: a failed or cancelled write leaves the old file as it was. An overwritten file keeps its permissions. " +
				"To change part of a file, use file.edit. Content is at most 32 MiB." + backupsNote + pathsNote,
			InputSchema: `{"type":"object","properties":{
				"path":{"type":"string","description":"The file to write."},
				"content":{"type":"string","description":"The whole new text (or the text to add, with append=True)."},
				"append":{"type":"boolean","default":false,"description":"Add content to the end instead of replacing the file."},
				"create_dirs":{"type":"boolean","default":true,"description":"Create missing parent directories."}},
				"required":["path","content"],"additionalProperties":false}`,
			Returns:  "str",
			Synonyms: map[string][]string{"content": {"text"}},
			Examples: []packs.Example{
				{Code: `file.write(path="notes/todo.md", content="- ship it\n")`, Result: "created notes/todo.md (10 bytes)"},
				{Code: `file.write("log.txt", "one more line\n", append=True)`},
			},
			Annotations: destructive,
			Handler:     p.wrap((*pack).write),
		},
		{
			Pack: "file", Name: "edit",
			Description: "Replace exact text in a file: `old` must occur exactly once (copy it from file.read, spaces and line breaks included, with enough lines around it to be unique); " +
				"with count=N it must occur exactly N times and all N are replaced; with replace_all=True every occurrence is. " +
				"Fails, changing nothing, when `old` is not found, is ambiguous, or occurs another number of times than count; the error says how many there are and on which lines. " +
				"dry_run=True writes nothing and returns what would change: the count, the lines, and a diff of the changed lines (\"@@ -12 +12 @@\", '-' before, '+' after); it works even when the pack is read-only. " +
				"The change is written atomically." + backupsNote + pathsNote,
			InputSchema: `{"type":"object","properties":{
				"path":{"type":"string","description":"The file to change."},
				"old":{"type":"string","description":"The exact text to replace."},
				"new":{"type":"string","description":"The text to put in its place (empty to delete it)."},
				"replace_all":{"type":"boolean","default":false,"description":"Replace every occurrence instead of requiring exactly one."},
				"count":{"type":"integer","minimum":0,"default":0,"description":"When more than 0: the exact number of occurrences expected, all of which are replaced; another number is an error that changes nothing."},
				"dry_run":{"type":"boolean","default":false,"description":"Change nothing: return the diff the edit would make."}},
				"required":["path","old","new"],"additionalProperties":false}`,
			Returns: "str",
			Synonyms: map[string][]string{"old": {"old_string", "old_text"}, "new": {"new_string", "new_text"},
				"count": {"expected_replacements"}, "dry_run": {"preview"}},
			Examples: []packs.Example{
				{Code: `file.edit(path="main.go", old="timeout := 10", new="timeout := 30")`, Result: "edited main.go: replaced 1 occurrence at line 12"},
				{Code: `file.edit("config.py", old="DEBUG = True", new="DEBUG = False", count=2)`, Description: "Exactly two occurrences, both replaced; any other number changes nothing"},
				{Code: `file.edit("main.go", old="return 1", new="return 2", count=2, dry_run=True)`, Description: "Show the diff, write nothing",
					Result: "dry run: would replace 2 occurrences (lines 4, 8) in main.go; nothing was written\n--- main.go\n+++ main.go (after the edit)\n@@ -4 +4 @@\n-\treturn 1\n+\treturn 2\n@@ -8 +8 @@\n-\treturn 1\n+\treturn 2"},
				{Code: `file.edit("README.md", old="colour", new="color", replace_all=True)`},
			},
			Annotations: destructive,
			Handler:     p.wrap((*pack).edit),
		},
		{
			Pack: "file", Name: "list",
			Description: "List one directory: names sorted, directories ending in '/'. pattern filters names with a glob (* ? [abc] [^abc] {a,b}: \"*.go\", \"*.{yml,yaml}\"; a trailing '/' keeps directories only). " +
				"With details=True each entry is a dict {name, type, size, modified}. At most `limit` entries; a longer listing ends with a note \"… N more entries: …\". " +
				"Everything is listed, .gitignore or not (file.tree and file.glob follow it). Symbolic links are listed, not followed." + pathsNote,
			InputSchema: `{"type":"object","properties":{
				"path":{"type":"string","default":".","description":"The directory to list."},
				"pattern":{"type":"string","default":"","description":"Only names matching this glob."},
				"details":{"type":"boolean","default":false,"description":"Return dicts with type, size and modification time."},
				"limit":{"type":"integer","minimum":1,"default":1000,"description":"Most entries to return (up to 10000)."}},
				"additionalProperties":false}`,
			Returns: "list[str | dict]",
			Examples: []packs.Example{
				{Code: `file.list()`, Description: "The working directory", Result: `["README.md", "cmd/", "go.mod"]`},
				{Code: `file.list("src", pattern="*.go")`},
				{Code: `[e["name"] for e in file.list("logs", details=True) if e["size"] and e["size"] > 1000000]`, Description: "Files over 1 MB"},
			},
			Annotations: readOnly,
			Handler:     p.wrap((*pack).list),
		},
		{
			Pack: "file", Name: "tree",
			Description: "Show a directory tree as indented text, `depth` levels deep (a directory not opened ends in '/ …'). " +
				"Symbolic links show where they point and are not followed; .git, node_modules, __pycache__ and .venv are not opened. " +
				"What .gitignore files ignore (those of the tree and of the directories above it up to the repository's top) is left out and counted in a last line; gitignore=False shows it. " +
				"At most `limit` entries; the rest is counted in a last line." + pathsNote,
			InputSchema: `{"type":"object","properties":{
				"path":{"type":"string","default":".","description":"The directory to show."},
				"depth":{"type":"integer","minimum":1,"default":3,"description":"How many levels to open."},
				"limit":{"type":"integer","minimum":1,"default":500,"description":"Most entries to show (up to 10000)."},
				"gitignore":{"type":"boolean","default":true,"description":"Leave out what .gitignore files ignore."}},
				"additionalProperties":false}`,
			Returns: "str",
			Examples: []packs.Example{
				{Code: `file.tree()`, Result: "./\n  README.md\n  cmd/\n    onetool/\n      main.go\n  go.mod"},
				{Code: `file.tree("src", depth=2)`},
				{Code: `file.tree(gitignore=False)`, Description: "Build output and other ignored files too"},
			},
			Annotations: readOnly,
			Handler:     p.wrap((*pack).tree),
		},
		{
			Pack: "file", Name: "glob",
			Description: "Find files and directories whose path under `path` matches a glob: * and ? within a name, classes [abc] [a-z] [^abc], ** for any number of directories, {a,b} for alternatives, \\ to escape (\"**/*.go\", \"src/**/*.{ts,tsx}\"); a trailing '/' matches directories only. " +
				"The whole path must match: \"*.go\" finds files in path itself, \"**/*.go\" at any depth. Returns paths usable in other calls, sorted; directories end in '/'. Patterns are relative and cannot go up ('..'); put the directory in path=. " +
				"What .gitignore files ignore is left out unless gitignore=False. Symbolic links are not followed; .git, node_modules and the like are searched only when the pattern names them. At most `limit` results, then a note." + pathsNote,
			InputSchema: `{"type":"object","properties":{
				"pattern":{"type":"string","description":"The glob, relative to path."},
				"path":{"type":"string","default":".","description":"The directory to search under."},
				"limit":{"type":"integer","minimum":1,"default":1000,"description":"Most paths to return (up to 10000)."},
				"gitignore":{"type":"boolean","default":true,"description":"Leave out what .gitignore files ignore (the tree's, and those above it up to the repository's top)."}},
				"required":["pattern"],"additionalProperties":false}`,
			Returns:  "list[str]",
			Synonyms: map[string][]string{"limit": {"max_results"}},
			Examples: []packs.Example{
				{Code: `file.glob("**/*.go")`, Result: `["cmd/app/main.go", "main.go"]`},
				{Code: `file.glob("*.md", path="docs")`, Result: `["docs/index.md", "docs/usage.md"]`},
				{Code: `file.glob("src/**/*.{ts,tsx}", gitignore=False)`, Description: "Generated files too"},
			},
			Annotations: readOnly,
			Handler:     p.wrap((*pack).glob),
		},
		{
			Pack: "file", Name: "grep",
			Description: "Search file contents with a regular expression (Go RE2 syntax; literal=True for plain text). Returns \"file:line: text\" strings; with context=N also N lines around each match as \"file:line- text\", and \"--\" between groups. " +
				"A match on a very long line shows a window of about 400 bytes around it, with '…' where the line goes on. " +
				"path is a directory (searched recursively) or one file. include= and exclude= take a glob or a list of globs: one without '/' matches file names (\"*.go\"), one with '/' paths under path (\"src/**/*.ts\"); " +
				"a file is searched when it matches an include (if any) and no exclude, and an excluded directory is not entered. " +
				"What .gitignore files ignore is skipped unless gitignore=False (root and nested .gitignore files, and those above path up to the repository's top, with git's rules: negation with '!', directory patterns ending in '/'). " +
				"Binary files, files over 8 MiB, symbolic links, .git, node_modules and the like are skipped. At most `limit` matches, then a note \"… N more matches\"." + pathsNote,
			InputSchema: `{"type":"object","properties":{
				"pattern":{"type":"string","description":"Regular expression (or text, with literal=True)."},
				"path":{"type":"string","default":".","description":"Directory or file to search."},
				"include":{"type":["string","array"],"items":{"type":"string"},"default":[],"description":"Only files matching one of these globs: a name glob (\"*.go\") or, with a '/', a path glob (\"src/**/*.ts\")."},
				"ignore_case":{"type":"boolean","default":false,"description":"Match upper and lower case alike."},
				"literal":{"type":"boolean","default":false,"description":"Treat pattern as plain text."},
				"context":{"type":"integer","minimum":0,"default":0,"description":"Lines to show before and after each match (up to 10)."},
				"files_only":{"type":"boolean","default":false,"description":"Return only the names of files that match."},
				"limit":{"type":"integer","minimum":1,"default":200,"description":"Most matches (or files) to return (up to 10000)."},
				"exclude":{"type":["string","array"],"items":{"type":"string"},"default":[],"description":"Skip files and directories matching one of these globs (same form as include)."},
				"gitignore":{"type":"boolean","default":true,"description":"Skip what .gitignore files ignore."}},
				"required":["pattern"],"additionalProperties":false}`,
			Returns:  "list[str]",
			Synonyms: map[string][]string{"limit": {"max_results"}, "include": {"glob"}},
			Examples: []packs.Example{
				{Code: `file.grep("func main", include="*.go")`, Result: `["cmd/app/main.go:9: func main() {"]`},
				{Code: `file.grep("TODO", path="src", ignore_case=True, files_only=True)`},
				{Code: `file.grep("http.Get", include=["*.go"], exclude=["*_test.go", "vendor/"], context=2)`, Description: "Two lines around each match, tests and vendor/ left out"},
				{Code: `file.grep("secret", gitignore=False)`, Description: "Ignored files too"},
			},
			Annotations: readOnly,
			Handler:     p.wrap((*pack).grep),
		},
		{
			Pack: "file", Name: "info",
			Description: "Describe a path: a dict {path, exists, type (file, dir, symlink, fifo, …), size, mode (\"0644\"), modified (ISO 8601, UTC), is_dir, is_file, is_link, target (links only), real_path}. " +
				"A path that does not exist gives {\"path\": …, \"exists\": False}, so programs can test for it. is_dir and is_file follow a link; type describes the entry itself." + pathsNote,
			InputSchema: `{"type":"object","properties":{
				"path":{"type":"string","description":"The file, directory or link to describe."}},
				"required":["path"],"additionalProperties":false}`,
			Returns: "dict",
			Examples: []packs.Example{
				{Code: `file.info("go.mod")["size"]`},
				{Code: `file.info("build")["exists"]`, Result: "False"},
			},
			Annotations: readOnly,
			Handler:     p.wrap((*pack).info),
		},
		{
			Pack: "file", Name: "copy",
			Description: "Copy a file, or a directory with everything in it. If dst is an existing directory (or ends in '/'), the copy goes inside it. " +
				"An existing file is replaced only with overwrite=True; directories are never merged. Permissions are kept, but not execute (a copy is never a program); links and onetool's own files inside a copied directory are skipped. " +
				"Files appear whole or not at all." + backupsNote + pathsNote,
			InputSchema: `{"type":"object","properties":{
				"src":{"type":"string","description":"The file or directory to copy."},
				"dst":{"type":"string","description":"The new path, or a directory to copy into."},
				"overwrite":{"type":"boolean","default":false,"description":"Replace an existing file at dst."}},
				"required":["src","dst"],"additionalProperties":false}`,
			Returns: "str",
			Examples: []packs.Example{
				{Code: `file.copy(src="config.yaml", dst="config.yaml.orig")`},
				{Code: `file.copy("templates", "out/")`, Description: "Copy the directory into out/"},
			},
			Annotations: destructive,
			Handler:     p.wrap((*pack).copy),
		},
		{
			Pack: "file", Name: "move",
			Description: "Move or rename a file, link or directory. If dst is an existing directory (or ends in '/'), it moves inside it. " +
				"An existing file is replaced only with overwrite=True; directories are never replaced, and one that holds onetool's own files is not moved. Between roots or file systems it copies, then deletes the source." + backupsNote + pathsNote,
			InputSchema: `{"type":"object","properties":{
				"src":{"type":"string","description":"What to move."},
				"dst":{"type":"string","description":"The new path, or a directory to move into."},
				"overwrite":{"type":"boolean","default":false,"description":"Replace an existing file at dst."}},
				"required":["src","dst"],"additionalProperties":false}`,
			Returns: "str",
			Examples: []packs.Example{
				{Code: `file.move(src="draft.md", dst="docs/guide.md")`, Result: "moved draft.md to docs/guide.md"},
				{Code: `file.move("old.log", "archive/")`},
			},
			Annotations: destructive,
			Handler:     p.wrap((*pack).move),
		},
		{
			Pack: "file", Name: "delete",
			Description: "Delete a file, a symbolic link (not what it points to), or a directory: an empty one at once, one with contents only with recursive=True. " +
				"An allowed root itself cannot be deleted, nor a directory that holds onetool's own files." + backupsNote + pathsNote,
			InputSchema: `{"type":"object","properties":{
				"path":{"type":"string","description":"What to delete."},
				"recursive":{"type":"boolean","default":false,"description":"Also delete a directory that is not empty, with everything in it."}},
				"required":["path"],"additionalProperties":false}`,
			Returns: "str",
			Examples: []packs.Example{
				{Code: `file.delete("tmp/output.json")`},
				{Code: `file.delete("build", recursive=True)`},
			},
			Annotations: destructive,
			Handler:     p.wrap((*pack).delete),
		},
	}
}
