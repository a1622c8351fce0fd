package harness

import (
	"fmt"
	"strings"

	"github.com/benchbook/benchbook/internal/asm"
)

// batchSymbol is the batch function beside a timed function: C's
// bench_time_NAME has bench_batch_NAME, Go's main.bbTime_F main.bbBatch_F.
func batchSymbol(timed string) string {
	for _, p := range [][2]string{{"bench_time_", "bench_batch_"}, {"main.bbTime_", "main.bbBatch_"}} {
		if rest, ok := strings.CutPrefix(timed, p[0]); ok {
			return p[1] + rest
		}
	}
	return ""
}

// analyseBatch disassembles and analyses the batch function of v, the one
// whose samples a run takes when it batches the variant (-batch, or
// -calibrate-reads for a pass shorter than that many clock reads). A batch
// function that is missing leaves a finding that says so, not an error:
// the single pass is what the build needs.
func analyseBatch(v *Variant, funcs map[string]asm.Func) {
	v.BatchSymbol = batchSymbol(v.Symbol)
	f, ok := funcs[v.BatchSymbol]
	if !ok {
		v.BatchFinding = fmt.Sprintf("batch function %s not found in the binary", v.BatchSymbol)
		return
	}
	a, err := asm.AnalyzeBatch(f, false)
	v.BatchAsm, v.BatchAnalysis, v.BatchDead, v.BatchHollow, v.BatchFinding = f.Text(), a, a.Dead, a.Hollow, a.Finding
	if err != nil {
		v.BatchFinding = fmt.Sprintf("no timed region in the batch function: %v", err)
	}
}
