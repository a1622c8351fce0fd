package protocol

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// smallDisk mounts a tmpfs of size bytes (a real filesystem that fills
// up) and returns its folder; the test is skipped where mount is not
// allowed (not root, no CAP_SYS_ADMIN).
func smallDisk(t *testing.T, size string) string {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skip("mounting a small tmpfs needs root")
	}
	dir := filepath.Join(t.TempDir(), "disk")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size+",mode=0700", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", dir).Run() })
	return dir
}

// Issue 23 item 9: a %bench whose results folder fills up while it runs
// names the cause (disk full, ENOSPC, the file it could not write), does
// not blame the benchmark process, and nothing it shows claims a
// result.json that was not written. On a real tmpfs of 48 KiB.
func TestDiskFullIsNamed(t *testing.T) {
	disk := smallDisk(t, "48k")
	k := buildC(t, "tiny", "static unsigned x = 1;\nBENCH(a) { x = x * 3u + 1u; bench_sink(x); }\n")
	opt, err := ParseOptions([]string{"quick"})
	if err != nil {
		t.Fatal(err)
	}
	opt.ResultsDir = filepath.Join(disk, "results")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r, err := Run(ctx, k, opt)
	if !errors.Is(err, ErrDiskFull) {
		t.Fatalf("the run on a full disk: %v, want an error wrapping ErrDiskFull", err)
	}
	msg := err.Error()
	for _, want := range []string{"no space left on device", "ENOSPC", opt.ResultsDir} {
		if !strings.Contains(msg, want) {
			t.Errorf("the error does not say %q: %s", want, msg)
		}
	}
	for _, wrong := range []string{"the kernel exited", "killed by signal", "the harness refused"} {
		if strings.Contains(msg, wrong) {
			t.Errorf("the error blames the benchmark process (%q): %s", wrong, msg)
		}
	}
	if r == nil {
		t.Fatal("no result")
	}
	if _, serr := os.Stat(filepath.Join(r.RawFile, ResultFile)); serr == nil {
		t.Fatal("result.json was written after all: the disk was not full at the end, the test shows nothing of the claim")
	}
	if !strings.Contains(r.ResultNotWritten, "no space left on device") {
		t.Errorf("the result does not say result.json was not written: %q", r.ResultNotWritten)
	}
}

// The result file itself on a full disk: the error wraps ErrDiskFull and
// names it.
func TestWriteFileAtomicOnAFullDisk(t *testing.T) {
	disk := smallDisk(t, "16k")
	big := make([]byte, 64<<10)
	err := WriteFileAtomic(filepath.Join(disk, ResultFile), big, 0o600)
	if !errors.Is(err, ErrDiskFull) || !strings.Contains(err.Error(), filepath.Join(disk, ResultFile)) {
		t.Errorf("%v", err)
	}
	if left, _ := os.ReadDir(disk); len(left) != 0 {
		t.Errorf("left on the disk: %v", left)
	}
}
