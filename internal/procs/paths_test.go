package procs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// nobody is the uid the tests give a file another user owns.
const nobody = 65534

// A lock is held by one taker at a time, and its file is gone once it is
// released.
func TestLockFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".out.lock")
	unlock, err := LockFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := LockFile(path); !errors.Is(err, ErrLocked) {
		t.Errorf("a second taker: %v, want ErrLocked", err)
	}
	unlock()
	if _, err := os.Lstat(path); err == nil {
		t.Error("the lock file is left behind")
	}
	again, err := LockFile(path)
	if err != nil {
		t.Fatalf("after the release: %v", err)
	}
	again()
}

// Issue 23 item 11: a lock file planted as a symbolic link (to a file the
// user owns, which a follow would truncate or lock) and one owned by
// another user are refused with an error naming them; the link's target is
// untouched.
func TestLockFileRefusesPlantedFiles(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "precious")
	if err := os.WriteFile(target, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, ".out.lock")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if _, err := LockFile(link); err == nil || !strings.Contains(err.Error(), "symbolic link") || !strings.Contains(err.Error(), link) {
		t.Errorf("a planted link: %v", err)
	}
	dangling := filepath.Join(dir, ".dangling.lock")
	if err := os.Symlink(filepath.Join(dir, "would-be-created"), dangling); err != nil {
		t.Fatal(err)
	}
	if _, err := LockFile(dangling); err == nil {
		t.Error("a dangling link was followed")
	}
	if _, err := os.Lstat(filepath.Join(dir, "would-be-created")); err == nil {
		t.Error("the dangling link's target was created")
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Errorf("the link's target now holds %q", b)
	}
	if os.Getuid() != 0 {
		t.Skip("chown to nobody needs root")
	}
	foreign := filepath.Join(dir, ".foreign.lock")
	if err := os.WriteFile(foreign, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(foreign, nobody, nobody); err != nil {
		t.Fatal(err)
	}
	if _, err := LockFile(foreign); err == nil || !strings.Contains(err.Error(), "owned by uid 65534") {
		t.Errorf("another user's lock file: %v", err)
	}
}

// Issue 23 item 11: a results folder that is a symbolic link, or that
// another user owns, is refused; a missing one is made 0700; MkdirIn makes
// a new folder in it and refuses an existing name.
func TestOwnDir(t *testing.T) {
	dir := t.TempDir()
	fresh := filepath.Join(dir, "nb", "results")
	if err := OwnDir(fresh); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(fresh); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Fatalf("%v %v", fi, err)
	}
	run, err := MkdirIn(fresh, "seed-1")
	if err != nil || run != filepath.Join(fresh, "seed-1") {
		t.Fatalf("MkdirIn: %q %v", run, err)
	}
	if _, err := MkdirIn(fresh, "seed-1"); !errors.Is(err, os.ErrExist) {
		t.Errorf("MkdirIn of an existing name: %v", err)
	}
	elsewhere := t.TempDir()
	link := filepath.Join(dir, "linked")
	if err := os.Symlink(elsewhere, link); err != nil {
		t.Fatal(err)
	}
	if err := OwnDir(link); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("a results link: %v", err)
	}
	if _, err := MkdirIn(link, "x"); err == nil {
		t.Error("MkdirIn followed a link")
	}
	if left, _ := os.ReadDir(elsewhere); len(left) != 0 {
		t.Errorf("written through the link: %v", left)
	}
	file := filepath.Join(dir, "afile")
	_ = os.WriteFile(file, nil, 0o600)
	if err := OwnDir(file); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Errorf("a file: %v", err)
	}
	if os.Getuid() != 0 {
		t.Skip("chown to nobody needs root")
	}
	foreign := filepath.Join(dir, "foreign")
	if err := os.Mkdir(foreign, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(foreign, nobody, nobody); err != nil {
		t.Fatal(err)
	}
	if err := OwnDir(foreign); err == nil || !strings.Contains(err.Error(), "owned by uid 65534") {
		t.Errorf("another user's results folder: %v", err)
	}
}

// Issue 23 item 11: a record file that is a FIFO, a device or a link to
// one is refused at once instead of hanging the reader.
func TestOpenRegularDoesNotHang(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "p001-x.txt")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	urandom := filepath.Join(dir, "p002-x.txt")
	if err := os.Symlink("/dev/urandom", urandom); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, urandom, "/dev/urandom"} {
		done := make(chan error, 1)
		go func() { _, err := ReadRegular(p, 1<<20); done <- err }()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("%s was read", p)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: the read hangs", p)
		}
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, make([]byte, 2048), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRegular(big, 1024); err == nil || !strings.Contains(err.Error(), "larger than 1024 bytes") {
		t.Errorf("a file over the limit: %v", err)
	}
}
