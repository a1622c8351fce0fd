package kproc

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// A TailBuffer keeps the last max bytes whoever writes, and in order.
func TestTailBuffer(t *testing.T) {
	b := NewTailBuffer(10)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() { defer wg.Done(); fmt.Fprintf(b, "w%d-", i) }()
	}
	wg.Wait()
	if got := b.String(); len(got) != 10 {
		t.Errorf("kept %q (%d bytes), want the last 10", got, len(got))
	}
	b = NewTailBuffer(5)
	b.Write([]byte("abc"))
	b.Write([]byte("defgh"))
	if got := b.String(); got != "defgh" {
		t.Errorf("kept %q, want defgh", got)
	}
}

// What a failed process printed is shown by its last 12 lines.
func TestOutputTail(t *testing.T) {
	if got := OutputTail("  \n "); got != "" {
		t.Errorf("no output: %q", got)
	}
	var lines []string
	for i := range 20 {
		lines = append(lines, fmt.Sprint("line ", i))
	}
	got := OutputTail(strings.Join(lines, "\n") + "\n")
	if !strings.HasPrefix(got, "; its last output:\nline 8\n") || !strings.HasSuffix(got, "line 19") || strings.Contains(got, "line 7\n") {
		t.Errorf("%q", got)
	}
}

// A record file is read whole, a missing one has no records, and what is
// not a regular file benchbook wrote is refused without reading it.
func TestReadRecordFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "p001.txt")
	if recs, err := ReadRecordFile(path); err != nil || recs != nil {
		t.Errorf("missing: %v %v", recs, err)
	}
	os.WriteFile(path, []byte("start lang=c pid=1 harness=10\nsample round=0 slot=0 pos=0 k=1 ns=12 minflt=-1\ndone stopped=0\nsample round=1 sl"), 0o600)
	recs, err := ReadRecordFile(path)
	if err != nil || len(recs) != 3 || recs[1].Kind != "sample" || recs[2].Kind != "done" {
		t.Errorf("records %v, %v: want start, sample, done and the cut last line skipped", recs, err)
	}
	link := filepath.Join(dir, "link.txt")
	os.Symlink(path, link)
	if _, err := ReadRecordFile(link); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("a link: %v", err)
	}
	fifo := filepath.Join(dir, "fifo.txt")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRecordFile(fifo); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a FIFO: %v", err)
	}
}
