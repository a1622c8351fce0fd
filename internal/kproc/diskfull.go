package kproc

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// ErrDiskFull is a write that failed for want of space: the filesystem is
// full (ENOSPC) or the user's quota is spent (EDQUOT).
var ErrDiskFull = errors.New("disk full")

// IsNoSpace says whether err is ENOSPC or EDQUOT.
func IsNoSpace(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}

// DiskFullError names a write of path that found no space: the errno and
// what the filesystem has left.
func DiskFullError(path string, errno error) error {
	name := "ENOSPC"
	if errors.Is(errno, syscall.EDQUOT) {
		name = "EDQUOT: the disk quota is spent"
	}
	free := ""
	var st syscall.Statfs_t
	if syscall.Statfs(filepath.Dir(path), &st) == nil {
		free = fmt.Sprintf("; %d bytes free of %d there", uint64(st.Bavail)*uint64(st.Bsize), uint64(st.Blocks)*uint64(st.Bsize))
	}
	return fmt.Errorf("%w: no space left on device writing %s (%s)%s", ErrDiskFull, path, name, free)
}

// NoSpaceIn says whether the filesystem of dir has no room for a record:
// a probe of 4 KiB written there fails with ENOSPC or EDQUOT. It returns
// that error, nil when there is room (or the probe failed otherwise).
func NoSpaceIn(dir string) error {
	f, err := os.CreateTemp(dir, ".benchbook-space-")
	if err != nil {
		if IsNoSpace(err) {
			return err
		}
		return nil
	}
	defer os.Remove(f.Name())
	_, err = f.Write(make([]byte, 4096))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if IsNoSpace(err) {
		return err
	}
	return nil
}
