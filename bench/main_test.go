package bench_test

import (
	"os"
	"testing"

	"github.com/benchbook/benchbook/cells"
)

// TestMain lets this test binary be the glue child process of the cells
// sessions the benchmarks make.
func TestMain(m *testing.M) {
	cells.ServeGlueChildIfAsked()
	os.Exit(m.Run())
}
