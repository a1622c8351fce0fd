package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/ipynb"
	"github.com/benchbook/benchbook/ipynb/evidence"
	"github.com/benchbook/benchbook/stdlib/display"
)

// Issue 23 item 6: a genuine notebook whose %bench stopped at its first
// process (it ran past timeout=, or crashed) verifies as what it is, a run
// that failed before it measured anything, and compare names it instead
// of calling it malformed. Its shown text is still held to the letter, and
// a result that departs from the schema elsewhere is still malformed.
func TestFailedRunVerifies(t *testing.T) {
	for _, c := range []struct{ name, kernel, opts, says string }{
		{"timed out", "#include <unistd.h>\nBENCH(a) { sleep(100); }", "quick timeout=1s", "ran longer than timeout=1s"},
		{"crashed", "BENCH(a) { *(volatile int *)0 = 1; }", "quick", "SIGSEGV"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			in, out := filepath.Join(dir, "nb.ipynb"), filepath.Join(dir, "out.ipynb")
			nb := ipynb.New(ipynb.NewCode("%%c k\n"+c.kernel), ipynb.NewCode("%bench k "+c.opts))
			if err := ipynb.WriteFile(in, nb); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			if err := run([]string{"run", in, "-o", out, "--allow-errors"}, &stdout, &stderr); err != nil {
				t.Fatalf("run: %v\n%s", err, stderr.String())
			}
			got, err := ipynb.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			var vout bytes.Buffer
			ok, err := evidence.Verify(got, &vout)
			if err != nil || !ok || !strings.Contains(vout.String(), "the run failed before it measured anything") ||
				!strings.Contains(vout.String(), c.says) || !strings.HasSuffix(strings.TrimSpace(vout.String()), ": ok") {
				t.Errorf("verify: ok %v %v\n%s", ok, err, vout.String())
			}
			var cout bytes.Buffer
			if err := evidence.Compare(evidence.Input{Name: "got.ipynb", Notebook: got}, evidence.Input{Name: "got.ipynb", Notebook: got}, &cout); err != nil || !strings.Contains(cout.String(), "nothing to compare") {
				t.Errorf("compare: %v\n%s", err, cout.String())
			}
			// The headline it shows is still the result's, to the letter.
			for _, o := range got.Cells[1].Outputs {
				if s, isText := o.Data[display.MIMEText].(string); isText && strings.Contains(s, "PARTIAL") {
					o.Data[display.MIMEText] = strings.Replace(s, "PARTIAL", "COMPLETE", 1)
					break
				}
			}
			vout.Reset()
			if ok, _ := evidence.Verify(got, &vout); ok || !strings.Contains(vout.String(), "MISMATCH") {
				t.Errorf("an edited headline of a failed run: ok %v\n%s", ok, vout.String())
			}
		})
	}
}
