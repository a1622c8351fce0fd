// Package sweep plans a sweep of internal/protocol: it reads sweep= (ParseSweep:
// the axes and their values), bytes= (ParseBytesExpr) and a sweep's
// predict= (ParseSweepPrediction), lists the points (Points), fits the
// working set of each point from the binaries' static data (FitSections,
// WorkingSet) and finds the machine's caches to set the curve against
// (SweepCaches). It runs nothing: internal/protocol runs the points
// (RunSweep) and re-exports these names.
package sweep
