package evidence

import (
	"fmt"
	"slices"

	"github.com/benchbook/benchbook/internal/protocol"
	"github.com/benchbook/benchbook/ipynb"
	"github.com/benchbook/benchbook/schema"
)

// A %bench that failed before it measured anything (its first process
// timed out, crashed, or could not start) still writes its result: partial,
// with the error, and no sample. The schemas describe a measured result and
// such a result departs from them where nothing was measured (no
// interleaved series, a clock whose resolution is 0). It is what it is, not
// a tampered result: verify checks everything else in it (the text it shows
// to the letter) and says it failed; compare names it and compares nothing
// with it.

// checkSchema validates the generic result v. A result of a run that
// failed before it measured anything passes when it departs from the
// schemas only where nothing was measured; failed then says why the run
// failed. Otherwise a departure is the error.
func checkSchema(v any) (failed string, err error) {
	err = schema.ValidateResult(v)
	if err == nil {
		return "", nil
	}
	r, derr := ipynb.DecodeResult(v)
	if derr != nil || !unmeasured(r) {
		return "", err
	}
	devs, derr := schema.ResultDeviations(v)
	if derr != nil {
		return "", err
	}
	for _, d := range devs {
		if !unmeasuredField(d) {
			return "", err
		}
	}
	return r.Error, nil
}

// unmeasured says whether r is a run that stopped before it measured a
// sample: partial, with the error that stopped it, and not one sample in
// any series nor in the A/A copy.
func unmeasured(r *protocol.Result) bool {
	return r.Partial && r.Error != "" && ipynb.SampleCount(r) == 0
}

// unmeasuredField says whether a schema departure is one that measuring
// nothing makes: a variant's series missing or null, the clock not
// measured.
func unmeasuredField(d schema.Deviation) bool {
	loc := d.Location
	switch {
	case len(loc) >= 3 && loc[0] == "variants" && loc[2] == "series":
		return slices.Contains([]string{"Type", "Required"}, d.Keyword)
	case len(loc) >= 2 && loc[0] == "conditions" && loc[1] == "clock":
		return slices.Contains([]string{"Type", "Required", "ExclusiveMinimum", "Minimum"}, d.Keyword)
	case len(loc) == 1 && loc[0] == "conditions" && d.Keyword == "Required":
		return true
	}
	return false
}

// failedNote is how verify and compare name a run that failed before it
// measured anything.
func failedNote(why string) string {
	return fmt.Sprintf("the run failed before it measured anything (%s)", why)
}
