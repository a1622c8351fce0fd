// Package findings writes what benchbook says of a result: the
// sentences of every topic (Sentences), the findings among them
// (Findings), the headline (Headline, SweepHeadline), the sweep's
// sentences and the curve analysis they read (Curves, FindSteps,
// FindFalls), and the claim keys every sentence is filed under (Claims).
// It reads a Result (internal/result) and runs nothing; the numbers in its
// sentences are written by internal/numtext. internal/protocol re-exports its
// names (protocol.Findings is findings.Findings) and calls Findings when a run
// is assembled. TextVersion changes with the wording.
package findings
