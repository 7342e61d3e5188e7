package pyops

// The file pack's variants: what open(), os, os.path, pathlib, glob,
// shutil and tempfile do to files, each counted as the public file tool
// named before the "@". Paths are as the program wrote them (relative to
// Facts.Cwd, or absolute); the variant resolves them within the run's
// roots exactly as the public tool does. Times are nanoseconds since the
// epoch (int64); sizes and offsets bytes (int64). An absent key is its
// zero value. Bytes ("content (PutContent)" below) are put in the
// args or result map itself, PutContent(m, b): under "text" or "b64".
//
// Entries (Stat, and each element of List's and Walk's "entries") are
// maps with these keys:
//
//	"name"     string  the last element (List, Walk)
//	"rel"      string  the path below the walked directory, "/"-separated (Walk)
//	"type"     string  "file", "dir", "link" or "other"
//	"size"     int64
//	"mode"     int64   permission bits and type, as os.stat's st_mode
//	"mtime_ns" int64
//	"atime_ns" int64   (Stat)
//	"ctime_ns" int64   (Stat)
//	"ino", "dev", "nlink" int64 (Stat)
//	"target_type" string the type a link points at ("" when it dangles or leaves the roots) (List, Walk)
const (
	// FileRead reads part of a regular file.
	// args: "path", "offset" int64, "size" int64 (at most MaxChunk; 0:
	// the whole file up to MaxChunk). result: content (PutContent), "size"
	// (the file's), "mtime_ns", "ino", "dev" (a module compares them
	// between chunks: ErrChanged), "eof" bool.
	FileRead = "file.read@chunk"

	// FileStat is os.stat / os.lstat of a path.
	// args: "path", "follow" bool (false: lstat). result: an entry, or
	// ErrNotFound.
	FileStat = "file.info@stat"

	// FileResolve is os.path.realpath / Path.resolve: the path with every
	// link followed, within the roots. args: "path", "strict" bool.
	// result: "path" string.
	FileResolve = "file.info@resolve"

	// FileList is os.listdir / os.scandir / Path.iterdir of a directory.
	// args: "path". result: "entries" []entry (sorted by name; onetool's
	// own files left out).
	FileList = "file.list@scan"

	// FileWalk lists a whole tree for os.walk, glob and Path.rglob, top
	// down, without following links unless "follow_links" (then every
	// target is checked within the roots and each directory is visited
	// once). args: "path", "follow_links" bool, "max_depth" int64 (0:
	// unlimited). result: "entries" []entry in walk order (a directory
	// before its contents), "truncated" bool is never set: past the pack's
	// scan cap the call fails with ErrTooLarge.
	FileWalk = "file.glob@walk"

	// FileOpen checks that a path may be opened for writing before the
	// program writes anything, as CPython's open() fails at once.
	// args: "path", "mode" ("w", "a", "x", "r+"). It asks before a "w"
	// of an existing file (an overwrite). result: "exists" bool, "size"
	// int64.
	FileOpen = "file.write@open"

	// FileWrite commits bytes a program wrote: the whole new content
	// (atomic replace, the file pack's backup kept once per run), or
	// bytes appended. args: "path", content (PutContent), "append" bool,
	// "first" bool (the first commit of this open file: a replace keeps a
	// backup). result: "size" int64.
	FileWrite = "file.write@commit"

	// FileMkdir is os.mkdir / os.makedirs / Path.mkdir.
	// args: "path", "parents" bool, "exist_ok" bool.
	FileMkdir = "file.write@mkdir"

	// FileTouch is Path.touch. args: "path", "exist_ok" bool.
	FileTouch = "file.write@touch"

	// FileTemp makes a directory or an empty file in the run's scratch
	// directory (tempfile), which is removed when the run ends and which
	// the run's operations may use as one of its roots.
	// args: "dir" bool, "prefix", "suffix". result: "path".
	FileTemp = "file.write@mkdtemp"

	// FileRemove is os.remove / os.rmdir / shutil.rmtree / Path.unlink.
	// args: "path", "kind" ("file", "dir" (empty) or "tree"),
	// "missing_ok" bool. It asks before destroying what it did not make
	// in this run.
	FileRemove = "file.delete@remove"

	// FileRename is os.rename / os.replace / Path.rename / Path.replace
	// (and shutil.move within the roots), with POSIX rename's meaning: an
	// existing file at dst is replaced (asked before, as an overwrite),
	// a directory onto a non-empty directory is ErrNotEmpty, a file onto
	// a directory ErrIsDir. args: "src", "dst".
	FileRename = "file.move@rename"

	// FileCopy is shutil.copy / copy2 / copyfile / copytree.
	// args: "src", "dst", "tree" bool, "dirs_exist_ok" bool, "meta" bool
	// (copy2: keep the modification time). result: "path" (the
	// destination written).
	FileCopy = "file.copy@copy"
)

// MaxChunk is the most bytes one FileRead returns; a module reads a
// larger file in chunks.
const MaxChunk = 8 << 20
