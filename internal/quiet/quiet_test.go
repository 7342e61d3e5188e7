package quiet

import (
	"os"
	"runtime"
	"testing"
	"time"
)

// TestWaitSeesABusyGoroutine: a goroutine left computing is not quiet,
// and once it stops, the process is.
func TestWaitSeesABusyGoroutine(t *testing.T) {
	base := Self(t)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for x := 0; ; x++ {
			select {
			case <-stop:
				return
			default:
			}
		}
	}()
	msg, err := check(os.Getpid(), base, true)
	if err != nil {
		t.Fatal(err)
	}
	if msg == "" {
		t.Error("a spinning goroutine was seen as quiet")
	}
	close(stop)
	<-done
	Wait(t, base, 2*time.Second)
}

// TestWaitSeesHeldMemory: memory still held is not quiet.
func TestWaitSeesHeldMemory(t *testing.T) {
	base := Self(t)
	held := make([]byte, 2*Slack)
	for i := range held {
		held[i] = 1
	}
	msg, err := check(os.Getpid(), base, true)
	if err != nil {
		t.Fatal(err)
	}
	if msg == "" {
		t.Errorf("%d MiB held was seen as quiet", len(held)>>20)
	}
	runtime.KeepAlive(held)
	Wait(t, base, 2*time.Second)
}
