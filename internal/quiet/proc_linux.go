package quiet

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"time"
)

// clockTick is the unit of /proc/PID/stat's times (USER_HZ), 100 on
// every Linux architecture Go supports.
const clockTick = 100

// read samples process pid from /proc.
func read(pid int) (Sample, error) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return Sample{}, err
	}
	// The command name, in parentheses, may hold spaces: fields are
	// counted after its closing parenthesis.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return Sample{}, fmt.Errorf("unexpected /proc/%d/stat", pid)
	}
	f := bytes.Fields(stat[i+1:])
	// After the name: state(0) … utime(11) stime(12) … rss(21).
	if len(f) < 22 {
		return Sample{}, fmt.Errorf("unexpected /proc/%d/stat", pid)
	}
	num := func(k int) (uint64, error) { return strconv.ParseUint(string(f[k]), 10, 64) }
	ut, err1 := num(11)
	st, err2 := num(12)
	rss, err3 := num(21)
	if err1 != nil || err2 != nil || err3 != nil {
		return Sample{}, fmt.Errorf("unexpected /proc/%d/stat", pid)
	}
	return Sample{
		CPU: time.Duration(ut+st) * time.Second / clockTick,
		RSS: rss * uint64(os.Getpagesize()),
	}, nil
}
