package evidence

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/ipynb"
	"github.com/benchbook/benchbook/schema"
)

// TestStoredResultsMatchTheSchema: every result of every notebook the
// repository holds matches the contract and the closed extension schema,
// which names each field it allows: a stored result with a field the
// schema does not know fails here, as it would fail verify.
func TestStoredResultsMatchTheSchema(t *testing.T) {
	n := 0
	root := filepath.Join("..", "..") // the repository
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != root || d.Name() == "third_party") {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(path, ".ipynb") {
			return nil
		}
		nb, err := ipynb.ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			return nil
		}
		for _, f := range ipynb.Results(nb) {
			n++
			if err := schema.ValidateResult(f.Value); err != nil {
				t.Errorf("%s %s: %s", path, f.Where(), schemaError(err))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no stored result found")
	}
}
