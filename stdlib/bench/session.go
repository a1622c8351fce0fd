package bench

import "errors"

// errNoSession is what the session's functions say outside a notebook.
var errNoSession = errors.New("bench.Run needs a notebook session: it runs in a glue cell, on a kernel a %%c, %%go or %%gotest cell built")

// Run runs the measurement protocol on kernel name, built in this session
// by a %%c, %%go or %%gotest cell, with the keys of %bench:
// bench.Run("seed", "quick", "reps=20"). The result is shown as %bench
// shows its headline and kept as the kernel's latest (bench.Get); an
// interrupted or failed run returns its partial result with the error.
// A var initializer that calls it keeps its result when the glue session
// is replayed.
//
// The notebook binds Run to its session; called from compiled Go, outside
// a notebook, it has no kernels and returns an error.
func Run(name string, args ...string) (*Result, error) { return nil, errNoSession }

// Get is the latest result of kernel name in this session (of %bench or
// bench.Run), or nil; a sweep's points are "NAME@N=4K" (two axes:
// "NAME@N=4K,M=8"). Outside a notebook it is nil.
func Get(name string) *Result { return nil }

// Kernels are the names of the kernels this session built, sorted.
// Outside a notebook there are none.
func Kernels() []string { return nil }
