package protocol

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Issue 23 item 11: a results folder that is a symbolic link, or that
// another user owns, is refused with an error naming it, and nothing is
// written through the link.
func TestResultsFolderNotFollowed(t *testing.T) {
	nb := t.TempDir()
	elsewhere := t.TempDir()
	results := filepath.Join(nb, "results")
	if err := os.Symlink(elsewhere, results); err != nil {
		t.Fatal(err)
	}
	if _, err := rawDir(results, "k"); err == nil || !strings.Contains(err.Error(), results+" is a symbolic link") {
		t.Errorf("a results link: %v", err)
	}
	if left, _ := os.ReadDir(elsewhere); len(left) != 0 {
		t.Errorf("written through the link: %v", left)
	}
	if os.Getuid() != 0 {
		t.Skip("chown to nobody needs root")
	}
	foreign := filepath.Join(t.TempDir(), "results")
	if err := os.Mkdir(foreign, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(foreign, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if _, err := rawDir(foreign, "k"); err == nil || !strings.Contains(err.Error(), "owned by uid 65534") {
		t.Errorf("another user's results folder: %v", err)
	}
}

// Issue 23 item 11: recover of a folder whose record file is a FIFO, or a
// link to /dev/urandom, fails at once with an error naming the file
// instead of hanging (or reading without end).
func TestRecoverDoesNotHang(t *testing.T) {
	k := seedKernel(t, "c")
	full := quickRun(t, k)
	dir := full.RawFile
	os.Remove(filepath.Join(dir, ResultFile))
	for _, c := range []struct {
		name  string
		plant func(path string) error
	}{
		{"a FIFO", func(p string) error { return syscall.Mkfifo(p, 0o600) }},
		{"a link to /dev/urandom", func(p string) error { return os.Symlink("/dev/urandom", p) }},
	} {
		planted := filepath.Join(dir, "p999-fresh-l0-sink-01.txt")
		os.Remove(planted)
		if err := c.plant(planted); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { _, err := Recover(dir); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "p999-fresh-l0-sink-01.txt") {
				t.Errorf("%s: %v, want an error naming the file", c.name, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: recover hangs", c.name)
		}
	}
}

// Past the 999th process the record files have four digits (a run of
// reps=30000 has 6000 blocks): recover reads them all, in the order the
// processes ran, and nothing else.
func TestRecordFilesPast999(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"p1000-interleaved-999.txt", "p999-interleaved-998.txt", "p001-first-discarded.txt",
		"p6025-fresh-l0-b-10.txt", "run.json", "p12-short.txt", "pxyz-bad.txt", ".p002-hidden.txt.tmp-1"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	files, err := recordFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, f.label)
	}
	want := []string{"first-discarded", "interleaved-998", "interleaved-999", "fresh-l0-b-10"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("record files %v, want %v", got, want)
	}
}
