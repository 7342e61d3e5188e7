//go:build !unix

package file

import "os"

// readFlags open files for reading; see open_unix.go.
const readFlags = os.O_RDONLY
