//go:build !race

package isolate

const raceDetector = false
