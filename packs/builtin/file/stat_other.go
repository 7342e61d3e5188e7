//go:build !linux && !darwin

package file

import "io/fs"

// sysStat is what os.stat tells beyond fs.FileInfo; here only what
// fs.FileInfo has (see stat_linux.go).
func sysStat(fi fs.FileInfo) (ino, dev, nlink, atime, ctime, mode int64) {
	return fallbackStat(fi)
}
