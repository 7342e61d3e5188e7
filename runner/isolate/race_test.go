//go:build race

package isolate

// raceDetector is true under -race, whose shadow memory counts against a
// worker's RLIMIT_DATA: a worker under a small hard limit cannot start.
const raceDetector = true
