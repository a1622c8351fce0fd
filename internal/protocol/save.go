package protocol

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/benchbook/benchbook/internal/atomicfile"
	"github.com/benchbook/benchbook/internal/kproc"
)

// save writes the result next to the raw records, atomically, and the Go
// benchmark format export when asked for; both hold samples and are
// private to the user (0600), as the raw records are.
func (r *runner) save() error {
	b, err := json.MarshalIndent(r.res, "", " ")
	if err != nil {
		return fmt.Errorf("result: %w", err)
	}
	if err := WriteFileAtomic(filepath.Join(r.dir, ResultFile), b, 0o600); err != nil {
		return err
	}
	if r.opt.Export != "" {
		var sb strings.Builder
		if err := WriteGoBench(&sb, r.res); err != nil {
			return err
		}
		if err := WriteFileAtomic(r.opt.Export, []byte(sb.String()), 0o600); err != nil {
			return fmt.Errorf("export=%s: %w", r.opt.Export, err)
		}
	}
	return nil
}

// WriteFileAtomic writes data to a temporary file in path's folder and
// renames it over path, so that a reader never sees half a file. A write
// that finds no space is an error wrapping ErrDiskFull that names path.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	err := atomicfile.WriteFile(path, data, perm)
	if kproc.IsNoSpace(err) {
		return kproc.DiskFullError(path, err)
	}
	return err
}
