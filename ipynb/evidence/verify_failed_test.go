package evidence

import (
	"strings"
	"testing"
)

// Only a result that measured nothing may depart from the schema where
// nothing was measured: one with samples (partial or not) whose
// interleaved series was removed is malformed, for verify and compare.
func TestFailedRunIsNarrow(t *testing.T) {
	for _, partial := range []bool{false, true} {
		nb := resultNotebook(t, honest(3))
		res := resultOf(nb)
		if partial {
			res["partial"], res["error"] = true, "first-discarded: the process ran longer than timeout=1s and was killed"
		}
		res["variants"].([]any)[0].(map[string]any)["series"].(map[string]any)["interleaved"] = nil
		nb = roundTrip(t, nb)
		if ok, out := verifyOut(t, nb); ok || !strings.Contains(out, "does not match result.schema.json") || strings.Contains(out, "failed before") {
			t.Errorf("partial %v, samples kept, interleaved removed: ok %v\n%s", partial, ok, out)
		}
		var b strings.Builder
		if err := Compare(Input{"a.ipynb", nb}, Input{"b.ipynb", nb}, &b); err == nil || !strings.Contains(err.Error(), "malformed result") {
			t.Errorf("compare, partial %v: %v", partial, err)
		}
	}
}
