package stdlib

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/onetool-dev/onetool/internal/pyops"
)

// osDirHost is a pyops.Host whose file operations work on a real
// directory, its only root (the cwd), as the file pack's variants would:
// a path outside it, or under its ".onetool", is ErrDenied; errors carry
// the kinds. It stands in for the file pack's variants (part 1 of issue
// 31) in these tests. ops counts the calls by op.
type osDirHost struct {
	root string
	env  map[string]string
	ops  map[string]int
}

func newOSDirHost(root string) *osDirHost {
	return &osDirHost{root: root, env: map[string]string{"LANG": "C.UTF-8", "APP_MODE": "test"}, ops: map[string]int{}}
}

func (h *osDirHost) Facts(context.Context) pyops.Facts {
	return pyops.Facts{Cwd: h.root, Roots: []string{h.root}, Env: h.env}
}

var errOutside = errors.New("outside the allowed roots")

// abs is the host path of p, refused outside the root or in onetool's
// own files.
func (h *osDirHost) abs(p string) (string, error) {
	if !filepath.IsAbs(p) {
		p = filepath.Join(h.root, p)
	}
	p = filepath.Clean(p)
	rel, err := filepath.Rel(h.root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", pyops.Tag(pyops.ErrDenied, fmt.Errorf("%s is outside the allowed roots (%s)", p, h.root))
	}
	for _, c := range strings.Split(rel, "/") {
		if c == ".onetool" {
			return "", pyops.Tag(pyops.ErrDenied, fmt.Errorf("%s is onetool's own file", rel))
		}
	}
	return p, nil
}

func kindErr(err error) error {
	if err == nil {
		return nil
	}
	var errno syscall.Errno
	switch {
	case errors.As(err, &errno) && errno == syscall.ENOTEMPTY: // (Go's ENOTEMPTY is also fs.ErrExist)
		return pyops.Tag(pyops.ErrNotEmpty, err)
	case errors.Is(err, fs.ErrNotExist):
		return pyops.Tag(pyops.ErrNotFound, err)
	case errors.Is(err, fs.ErrExist):
		return pyops.Tag(pyops.ErrExists, err)
	case errors.As(err, &errno) && errno == syscall.EISDIR:
		return pyops.Tag(pyops.ErrIsDir, err)
	case errors.As(err, &errno) && errno == syscall.ENOTDIR:
		return pyops.Tag(pyops.ErrNotDir, err)
	}
	return err
}

func fileTypeOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "dir"
	case m&fs.ModeSymlink != 0:
		return "link"
	case m.IsRegular():
		return "file"
	}
	return "other"
}

func (h *osDirHost) entry(full string, fi fs.FileInfo) map[string]any {
	st := fi.Sys().(*syscall.Stat_t)
	e := map[string]any{
		"name": fi.Name(), "type": fileTypeOf(fi.Mode()), "size": fi.Size(), "mode": int64(st.Mode),
		"mtime_ns": fi.ModTime().UnixNano(), "atime_ns": st.Atim.Nano(), "ctime_ns": st.Ctim.Nano(),
		"ino": int64(st.Ino), "dev": int64(st.Dev), "nlink": int64(st.Nlink),
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		e["target_type"] = ""
		if t, err := os.Stat(full); err == nil {
			if _, err := h.abs(mustEval(full)); err == nil {
				e["target_type"] = fileTypeOf(t.Mode())
			}
		}
	}
	return e
}

func mustEval(p string) string {
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		return p
	}
	return r
}

func argStr(args map[string]any, k string) string { s, _ := args[k].(string); return s }
func argFlag(args map[string]any, k string) bool  { b, _ := args[k].(bool); return b }

func (h *osDirHost) Call(ctx context.Context, op string, args map[string]any) (any, error) {
	h.ops[op]++
	switch op {
	case pyops.FileStat:
		p, err := h.abs(argStr(args, "path"))
		if err != nil {
			return nil, err
		}
		stat := os.Lstat
		if argFlag(args, "follow") {
			stat = os.Stat
			if _, err := h.abs(mustEval(p)); err != nil {
				return nil, err
			}
		}
		fi, err := stat(p)
		if err != nil {
			return nil, kindErr(err)
		}
		return h.entry(p, fi), nil
	case pyops.FileResolve:
		p, err := h.abs(argStr(args, "path"))
		if err != nil {
			return nil, err
		}
		r, err := filepath.EvalSymlinks(p)
		if err != nil {
			if argFlag(args, "strict") {
				return nil, kindErr(err)
			}
			r = p
		}
		if _, err := h.abs(r); err != nil {
			return nil, err
		}
		return map[string]any{"path": r}, nil
	case pyops.FileList:
		p, err := h.abs(argStr(args, "path"))
		if err != nil {
			return nil, err
		}
		des, err := os.ReadDir(p)
		if err != nil {
			return nil, kindErr(err)
		}
		var out []any
		for _, de := range des {
			if de.Name() == ".onetool" {
				continue
			}
			fi, err := de.Info()
			if err != nil {
				continue
			}
			out = append(out, h.entry(filepath.Join(p, de.Name()), fi))
		}
		return map[string]any{"entries": out}, nil
	case pyops.FileWalk:
		p, err := h.abs(argStr(args, "path"))
		if err != nil {
			return nil, err
		}
		fi, err := os.Stat(p)
		if err != nil {
			return nil, kindErr(err)
		}
		if !fi.IsDir() {
			return nil, pyops.Tag(pyops.ErrNotDir, errors.New("not a directory"))
		}
		var out []any
		seen := map[string]bool{mustEval(p): true}
		var walk func(dir, rel string) error
		walk = func(dir, rel string) error {
			des, err := os.ReadDir(dir)
			if err != nil {
				return nil
			}
			sort.Slice(des, func(i, j int) bool { return des[i].Name() < des[j].Name() })
			for _, de := range des {
				if de.Name() == ".onetool" {
					continue
				}
				fi, err := de.Info()
				if err != nil {
					continue
				}
				full := filepath.Join(dir, de.Name())
				e := h.entry(full, fi)
				r := de.Name()
				if rel != "" {
					r = rel + "/" + r
				}
				e["rel"] = r
				out = append(out, e)
				isDir := fi.IsDir() || argFlag(args, "follow_links") && e["target_type"] == "dir"
				// A directory is entered unless it is one of its own
				// ancestors (a link loop): as CPython, a tree reached by
				// two links is walked twice.
				if real := mustEval(full); isDir && !seen[real] {
					seen[real] = true
					err := walk(full, r)
					delete(seen, real)
					if err != nil {
						return err
					}
				}
			}
			return nil
		}
		if err := walk(p, ""); err != nil {
			return nil, err
		}
		return map[string]any{"entries": out}, nil
	case pyops.FileMkdir:
		p, err := h.abs(argStr(args, "path"))
		if err != nil {
			return nil, err
		}
		if argFlag(args, "parents") {
			if fi, err := os.Stat(p); err == nil && fi.IsDir() && !argFlag(args, "exist_ok") {
				return nil, pyops.Tag(pyops.ErrExists, errors.New("exists"))
			}
			return nil, kindErr(os.MkdirAll(p, 0o755))
		}
		err = os.Mkdir(p, 0o755)
		if errors.Is(err, fs.ErrExist) && argFlag(args, "exist_ok") {
			if fi, _ := os.Stat(p); fi != nil && fi.IsDir() {
				return nil, nil
			}
		}
		return nil, kindErr(err)
	case pyops.FileTouch:
		p, err := h.abs(argStr(args, "path"))
		if err != nil {
			return nil, err
		}
		f, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			return nil, f.Close()
		}
		if errors.Is(err, fs.ErrExist) && argFlag(args, "exist_ok") {
			return nil, nil
		}
		return nil, kindErr(err)
	case pyops.FileRemove:
		p, err := h.abs(argStr(args, "path"))
		if err != nil {
			return nil, err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			if argFlag(args, "missing_ok") && errors.Is(err, fs.ErrNotExist) {
				return nil, nil
			}
			return nil, kindErr(err)
		}
		switch argStr(args, "kind") {
		case "file":
			if fi.IsDir() {
				return nil, pyops.Tag(pyops.ErrIsDir, errors.New("is a directory"))
			}
			return nil, kindErr(os.Remove(p))
		case "dir":
			if !fi.IsDir() {
				return nil, pyops.Tag(pyops.ErrNotDir, errors.New("not a directory"))
			}
			return nil, kindErr(syscall.Rmdir(p))
		}
		if !fi.IsDir() {
			return nil, pyops.Tag(pyops.ErrNotDir, errors.New("not a directory"))
		}
		return nil, kindErr(os.RemoveAll(p))
	case pyops.FileRename:
		src, err := h.abs(argStr(args, "src"))
		if err != nil {
			return nil, err
		}
		dst, err := h.abs(argStr(args, "dst"))
		if err != nil {
			return nil, err
		}
		return nil, kindErr(os.Rename(src, dst))
	case pyops.FileCopy:
		src, err := h.abs(argStr(args, "src"))
		if err != nil {
			return nil, err
		}
		dst, err := h.abs(argStr(args, "dst"))
		if err != nil {
			return nil, err
		}
		if argFlag(args, "tree") {
			if _, err := os.Stat(dst); err == nil && !argFlag(args, "dirs_exist_ok") {
				return nil, pyops.Tag(pyops.ErrExists, errors.New("exists"))
			}
			err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				rel, _ := filepath.Rel(src, path)
				to := filepath.Join(dst, rel)
				if d.IsDir() {
					return os.MkdirAll(to, 0o755)
				}
				return copyFileTo(path, to)
			})
			return map[string]any{"path": argStr(args, "dst")}, kindErr(err)
		}
		if fi, err := os.Stat(dst); err == nil && fi.IsDir() {
			return nil, pyops.Tag(pyops.ErrIsDir, errors.New("is a directory"))
		}
		return map[string]any{"path": argStr(args, "dst")}, kindErr(copyFileTo(src, dst))
	case pyops.FileRead:
		p, err := h.abs(argStr(args, "path"))
		if err != nil {
			return nil, err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, kindErr(err)
		}
		r := map[string]any{"size": int64(len(b)), "eof": true}
		pyops.PutContent(r, b)
		return r, nil
	case pyops.FileOpen:
		p, err := h.abs(argStr(args, "path"))
		if err != nil {
			return nil, err
		}
		fi, err := os.Stat(p)
		if err == nil && fi.IsDir() {
			return nil, pyops.Tag(pyops.ErrIsDir, errors.New("is a directory"))
		}
		if err == nil && argStr(args, "mode") == "x" {
			return nil, pyops.Tag(pyops.ErrExists, errors.New("exists"))
		}
		if _, err := os.Stat(filepath.Dir(p)); err != nil {
			return nil, kindErr(err)
		}
		return map[string]any{"exists": err == nil}, nil
	case pyops.FileWrite:
		p, err := h.abs(argStr(args, "path"))
		if err != nil {
			return nil, err
		}
		b, err := pyops.GetContent(args)
		if err != nil {
			return nil, err
		}
		flags := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
		if argFlag(args, "append") {
			flags = os.O_CREATE | os.O_WRONLY | os.O_APPEND
		}
		f, err := os.OpenFile(p, flags, 0o644)
		if err != nil {
			return nil, kindErr(err)
		}
		defer f.Close()
		_, err = f.Write(b)
		return map[string]any{"size": int64(len(b))}, kindErr(err)
	}
	return nil, fmt.Errorf("osDirHost: no op %s", op)
}

func copyFileTo(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
