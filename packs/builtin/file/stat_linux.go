package file

import (
	"io/fs"
	"syscall"
)

// sysStat is what os.stat tells beyond fs.FileInfo: the file's identity,
// links, times and its st_mode with the type bits (pyops.go).
func sysStat(fi fs.FileInfo) (ino, dev, nlink, atime, ctime, mode int64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int64(st.Ino), int64(st.Dev), int64(st.Nlink), st.Atim.Nano(), st.Ctim.Nano(), int64(st.Mode)
	}
	return fallbackStat(fi)
}
