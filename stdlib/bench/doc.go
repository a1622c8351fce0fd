// Package bench is the notebook's API to the measurement protocol: the
// names a Go glue cell uses without an import (bench.Run, bench.Get,
// bench.FormatNS, ...), and nothing else. Its exported names are the
// documented API; inspecting one in a glue cell shows its doc comment here.
//
// The protocol itself is run by internal/protocol, on the result model of
// internal/result and the sentences of internal/findings: the types here
// are aliases of theirs (bench.Result is the result every other package
// reads), so a result's fields and methods are all reachable from a glue
// cell even where this package does not name their types.
//
// The names fall in five groups:
//
//   - the session: Run, Get and Kernels, bound by the notebook to the kernels
//     its cells built (session.go);
//   - results: Result and the types of its parts a glue cell names, results
//     read back from an executed notebook (ReadNotebook) or a killed run's
//     folder (Recover), and a sweep point's samples (SweepSamples);
//   - the words: Sentences and Headline of a result, SweepSentences and
//     SweepHeadline of a sweep, FindFalls of a curve;
//   - the verdicts: Verdict, the one rule of every verdict word, and the
//     before/after's JudgeHeadline, BlockPlan and BlockStop, with their
//     constants;
//   - numbers as the sentences write them: FormatNS, FormatRatio, FormatPct,
//     FormatBytes.
//
// Code in this module imports internal/protocol, never this package: the
// facade is for notebooks, and what it names is held to the documented list
// by its tests (TestFacadeNames).
package bench
