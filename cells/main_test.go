package cells

import (
	"os"
	"testing"
)

// TestMain lets this test binary be the glue child process of the
// sessions the tests make (it re-executes itself, as benchbook does).
func TestMain(m *testing.M) {
	ServeGlueChildIfAsked()
	os.Exit(m.Run())
}
