package procs

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// Files and folders benchbook creates where others may write (beside a
// notebook: its results folder, the lock of an executed notebook) are
// created without following links: a link planted in their place, or a
// folder another user owns, is refused with an error naming it.

// ErrLocked is LockFile's error when another process holds the lock.
var ErrLocked = errors.New("locked by another process")

// LockFile takes an exclusive flock(2) on the lock file path, created 0600
// if missing. It refuses a symbolic link, what is not a regular file, and
// a file another user owns. The returned unlock removes the file and then
// releases the lock; a lock file whose holder was killed is removed by the
// holder's guard (Track). A process that opened the file before it was
// removed sees, once it has the lock, that the name no longer leads to
// the file it locked, and tries again: two processes never both hold a
// lock of one name. When another process holds it: an error wrapping
// ErrLocked.
func LockFile(path string) (unlock func(), err error) {
	for range 10 {
		f, err := openNoFollow(path, unix.O_RDWR|unix.O_CREAT, 0o600)
		if err != nil {
			return nil, err
		}
		if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, unix.EWOULDBLOCK) {
				return nil, fmt.Errorf("%s: %w", path, ErrLocked)
			}
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if !samePath(f, path) {
			f.Close() // removed (or replaced) by its last holder: try again
			continue
		}
		untrack := Track("lock", path)
		return func() {
			untrack()
			if samePath(f, path) {
				_ = os.Remove(path)
			}
			f.Close()
		}, nil
	}
	return nil, fmt.Errorf("lock %s: it keeps being replaced", path)
}

// removeLock removes the lock file path of a holder that died, once no
// one holds it (the same protocol as LockFile's unlock); the holder's
// files may still be closing, so it tries for a second.
func removeLock(path string) {
	f, err := openNoFollow(path, unix.O_RDWR, 0)
	if err != nil {
		return
	}
	defer f.Close()
	for range 50 {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			if samePath(f, path) {
				_ = os.Remove(path)
			}
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// samePath says whether path still names the file f is open on.
func samePath(f *os.File, path string) bool {
	var a, b unix.Stat_t
	if unix.Fstat(int(f.Fd()), &a) != nil || unix.Lstat(path, &b) != nil {
		return false
	}
	return a.Dev == b.Dev && a.Ino == b.Ino
}

// openNoFollow opens path with O_NOFOLLOW and checks that it is a regular
// file of this user's.
func openNoFollow(path string, flags int, mode uint32) (*os.File, error) {
	fd, err := unix.Open(path, flags|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, mode)
	if errors.Is(err, unix.ELOOP) {
		return nil, fmt.Errorf("%s is a symbolic link: benchbook does not follow links here; remove it", path)
	}
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	f := os.NewFile(uintptr(fd), path)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		f.Close()
		return nil, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		f.Close()
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	if int(st.Uid) != os.Getuid() {
		f.Close()
		return nil, fmt.Errorf("%s is owned by uid %d, not %d: benchbook does not use another user's file here; remove it", path, st.Uid, os.Getuid())
	}
	return f, nil
}

// OwnDir makes sure dir is a folder of this user's: it is created (0700,
// its missing parents too) when missing; a symbolic link in its place,
// what is not a folder, and a folder another user owns are refused.
func OwnDir(dir string) error {
	dir = filepath.Clean(dir)
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return err
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return err
	}
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) { // a link gives either
		if fi, lerr := os.Lstat(dir); lerr == nil && fi.Mode()&os.ModeSymlink != 0 {
			return fmt.Errorf("%s is a symbolic link: benchbook does not follow links here; make it a folder of your own", dir)
		}
		return fmt.Errorf("%s is not a folder", dir)
	}
	if err != nil {
		return &os.PathError{Op: "open", Path: dir, Err: err}
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return &os.PathError{Op: "stat", Path: dir, Err: err}
	}
	if int(st.Uid) != os.Getuid() {
		return fmt.Errorf("%s is owned by uid %d, not %d: benchbook does not write into another user's folder; remove it or choose another", dir, st.Uid, os.Getuid())
	}
	return nil
}

// MkdirIn creates the folder name (0700, exclusively) inside parent, which
// must be a folder of this user's (OwnDir), without following a link at
// either; it returns the new folder's path. An existing name: an error
// wrapping os.ErrExist.
func MkdirIn(parent, name string) (string, error) {
	pfd, err := unix.Open(parent, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return "", &os.PathError{Op: "open", Path: parent, Err: err}
	}
	defer unix.Close(pfd)
	path := filepath.Join(parent, name)
	if err := unix.Mkdirat(pfd, name, 0o700); err != nil {
		return "", &os.PathError{Op: "mkdir", Path: path, Err: err}
	}
	return path, nil
}

// OpenRegular opens path for reading without following a link and without
// blocking (a FIFO or a device would hang an open or a read), and refuses
// what is not a regular file.
func OpenRegular(path string) (*os.File, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.ELOOP) {
		return nil, fmt.Errorf("%s is a symbolic link, not a file benchbook wrote", path)
	}
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return RegularOnly(os.NewFile(uintptr(fd), path))
}

// RegularOnly returns f if it is a regular file, else closes it and says
// what it is instead (a FIFO or a device would hang a read).
func RegularOnly(f *os.File) (*os.File, error) {
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is not a regular file (%s)", f.Name(), fi.Mode().Type())
	}
	return f, nil
}

// ReadRegular reads the regular file path (OpenRegular) of at most limit
// bytes; a larger one is an error naming the limit.
func ReadRegular(path string, limit int64) ([]byte, error) {
	f, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	return ReadAllLimit(f, limit)
}

// ReadAllLimit reads f to its end and closes it: at most limit bytes, a
// larger file is an error naming the limit.
func ReadAllLimit(f *os.File, limit int64) ([]byte, error) {
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s is larger than %d bytes", f.Name(), limit)
	}
	return b, nil
}
