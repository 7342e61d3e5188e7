//go:build !linux

package quiet

import "errors"

func read(int) (Sample, error) {
	return Sample{}, errors.New("process sampling needs Linux's /proc")
}
