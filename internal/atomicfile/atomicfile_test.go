package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A write replaces the file whole with the given permissions; a write that
// fails half way leaves the old file and nothing else in the folder, and
// its error names the file and wraps the cause.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := WriteFile(path, []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", st.Mode().Perm())
	}
	if perm, err := Perm(path, 0o644); err != nil || perm != 0o600 {
		t.Errorf("Perm of the file: %v %v, want 0600", perm, err)
	}
	if perm, err := Perm(filepath.Join(dir, "none"), 0o644); err != nil || perm != 0o644 {
		t.Errorf("Perm of no file: %v %v, want the default 0644", perm, err)
	}
	cause := errors.New("disk full")
	err := Write(path, 0o600, func(w io.Writer) error {
		_, _ = w.Write([]byte("tw"))
		return cause
	})
	if !errors.Is(err, cause) || !strings.Contains(err.Error(), path) {
		t.Errorf("failed write: %v, want the cause and the path", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "one" {
		t.Errorf("a failed write left %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("a failed write left %d files", len(ents))
	}
	if err := WriteFile(filepath.Join(dir, "missing", "f"), nil, 0o600); err == nil {
		t.Error("a write into a missing folder succeeded")
	}
}
