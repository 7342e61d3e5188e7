// Package safefile reads files that onetool is told about (configuration,
// toolpacks) without letting a path stall or flood it: only regular files
// are read, and only up to a size.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// ReadRegular reads the regular file at path, of at most max bytes. what
// names the kind of file in the size error ("a configuration file").
// Directories, devices and pipes are refused: opening or reading them
// could block forever.
func ReadRegular(path string, max int64, what string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, errors.New("is a directory, not a file")
	}
	if !st.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	tooBig := fmt.Errorf("larger than the %d bytes %s may have", max, what)
	if st.Size() > max {
		return nil, tooBig
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, tooBig
	}
	return data, nil
}
