package gluechild

import (
	"runtime"
	"testing"
	"time"
)

// Issue 23 item 2: the child gets SIGKILL when the OS thread that started
// it exits (Pdeathsig), and a thread exits when a goroutine that locked it
// ends, as a load=N thread does. Started from such a goroutine, the child
// must live on: it is started from the one thread that lives as long as
// the process (procs.StartCmd). Three times: the runtime never ends the
// main thread (it parks it for good), so the first goroutine may land on
// it and prove nothing; the later ones cannot.
func TestChildOutlivesTheThreadThatStartedIt(t *testing.T) {
	type started struct {
		c   *Client
		err error
	}
	for attempt := 1; attempt <= 3; attempt++ {
		ch := make(chan started, 1)
		go func() {
			runtime.LockOSThread() // never unlocked: the thread ends with this goroutine
			c, err := Start(Options{Dir: t.TempDir()})
			ch <- started{c, err}
		}()
		s := <-ch
		if s.err != nil {
			t.Fatal(s.err)
		}
		p := s.c.live(10 * time.Second)
		if p == nil {
			t.Fatal("no child")
		}
		// Pdeathsig is delivered once the thread is gone; give it the time.
		for deadline := time.Now().Add(300 * time.Millisecond); time.Now().Before(deadline) && p.alive(); {
			time.Sleep(10 * time.Millisecond)
		}
		if !p.alive() {
			s.c.Close()
			t.Fatalf("attempt %d: the child died with the thread that started it: %s", attempt, p.cause(s.c.lim))
		}
		if got, e := eval(t, s.c, "Cell[1]", "x := 7\nx"); e != nil || got != "7" || s.c.live(10*time.Second) != p {
			t.Errorf("attempt %d: got %q, %v, same child %v", attempt, got, e, s.c.live(10*time.Second) == p)
		}
		s.c.Close()
	}
}
