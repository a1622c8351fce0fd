package gluechild

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"syscall"
)

// stderrLog keeps what the child writes on its stderr (fd 2): the Go
// runtime's last words when it dies. It keeps the lines that name a cause
// ("fatal error: ...", "panic: ...", "runtime: ...") since the last mark,
// and the last lines, bounded.
type stderrLog struct {
	mu     sync.Mutex
	causes []string
	tail   []string
	done   chan struct{}
}

const (
	maxCauses = 8
	maxTail   = 40
)

// newStderrLog reads the child's stderr r until it closes.
func newStderrLog(r io.Reader) *stderrLog {
	l := &stderrLog{done: make(chan struct{})}
	go l.read(r)
	return l
}

// read scans the child's stderr until it closes.
func (l *stderrLog) read(r io.Reader) {
	defer close(l.done)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		l.add(sc.Text())
	}
	_, _ = io.Copy(io.Discard, r)
}

// add keeps a line: among the causes if it names one, and in the tail.
func (l *stderrLog) add(line string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if isCause(line) && len(l.causes) < maxCauses {
		l.causes = append(l.causes, line)
	}
	l.tail = append(l.tail, line)
	if len(l.tail) > maxTail {
		l.tail = l.tail[len(l.tail)-maxTail:]
	}
}

// isCause reports a line in which the Go runtime names why it dies.
func isCause(line string) bool {
	for _, p := range []string{"fatal error: ", "panic: ", "runtime: ", "runtime/cgo: ", "SIG", "=="} {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

// report is the cause lines seen, for the error's traceback.
func (l *stderrLog) report() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.causes...)
}

// lastWords are the cause lines, or when there are none the last lines
// written, for a traceback.
func (l *stderrLog) lastWords() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.causes) > 0 {
		return append([]string(nil), l.causes...)
	}
	n := len(l.tail)
	if n > 5 {
		n = 5
	}
	return append([]string(nil), l.tail[len(l.tail)-n:]...)
}

// memoryNote names the memory limit, which a cause of death that is a
// failed allocation is about.
func memoryNote(lim Limits) string {
	return fmt.Sprintf(" (the glue process's limit is %s; set %s to change it)", formatSize(lim.Memory), EnvMemory)
}

// cause names why the child died, from its stderr and its exit status, in
// one line: "stack overflow", "concurrent map writes", "out of memory (the
// glue process's limit is 4 GiB, BENCHBOOK_GLUE_MEMORY)", "panic: boom",
// "killed by signal 9 (killed)".
func cause(lines []string, st *os.ProcessState, lim Limits) string {
	for _, l := range lines {
		if msg, ok := strings.CutPrefix(l, "fatal error: "); ok {
			msg = strings.TrimPrefix(msg, "runtime: ")
			if strings.Contains(msg, "out of memory") || strings.Contains(msg, "cannot allocate memory") {
				msg += memoryNote(lim)
			}
			if strings.Contains(msg, "stack overflow") {
				msg += fmt.Sprintf(" (a goroutine's stack passed %s: runaway recursion?)", formatSize(lim.Stack))
			}
			return msg
		}
	}
	for _, l := range lines {
		// Under RLIMIT_DATA a new thread's stack is memory like any other;
		// so is the shadow memory of the race detector (errno 12, ENOMEM).
		if strings.Contains(l, "pthread_create failed") || strings.Contains(l, "(errno: 12)") {
			return fmt.Sprintf("out of memory (%s)%s", l, memoryNote(lim))
		}
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "panic: ") {
			if i := strings.Index(l, " [recovered"); i > 0 {
				l = l[:i]
			}
			return l + " (in a goroutine the interpreter could not guard, e.g. a time.AfterFunc callback)"
		}
	}
	if st != nil {
		if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return fmt.Sprintf("killed by signal %d (%v)", int(ws.Signal()), ws.Signal())
		}
		return fmt.Sprintf("the process exited with status %d", st.ExitCode())
	}
	return "the process ended"
}
