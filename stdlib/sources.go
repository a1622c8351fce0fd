// Package stdlib holds what notebook cells can use (see its sub-packages)
// and carries their sources, so that inspecting bench.Run or
// stats.Summarize in a glue cell shows its doc comment and signature on a
// machine that has no copy of this repository.
package stdlib

import "embed"

// Sources are the Go files of the packages glue cells have without an
// import (tests included; readers skip *_test.go), under their folder
// names: bench/run.go, stats/summarize.go, ...
//
//go:embed bench/*.go stats/*.go plot/*.go report/*.go display/*.go
var Sources embed.FS

// ImportPrefix is the import path of this module's stdlib folder.
const ImportPrefix = "github.com/benchbook/benchbook/stdlib/"
