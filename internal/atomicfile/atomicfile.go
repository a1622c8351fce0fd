// Package atomicfile writes files so that a reader sees the old file or the
// new one, never half of one: the one atomic writer of benchbook (results,
// raw records, exports, notebooks, HTML pages).
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Write writes what fill writes to path through a temporary file in the
// same folder, with permissions perm, synced and renamed over path. A failed
// write (fill's error, a full disk, a missing folder) leaves the old file as
// it was and no temporary file behind; the error names path and wraps the
// cause.
func Write(path string, perm fs.FileMode, fill func(io.Writer) error) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(f.Name())
			err = fmt.Errorf("writing %s: %w", path, err)
		}
	}()
	if err = fill(f); err != nil {
		return err
	}
	if err = f.Chmod(perm); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// WriteFile is Write of data.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	return Write(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Perm is the permissions of the file at path, or def when there is none
// (an overwrite keeps the mode its owner gave the file).
func Perm(path string, def fs.FileMode) (fs.FileMode, error) {
	st, err := os.Stat(path)
	switch {
	case err == nil:
		return st.Mode().Perm(), nil
	case errors.Is(err, fs.ErrNotExist):
		return def, nil
	}
	return 0, err
}
