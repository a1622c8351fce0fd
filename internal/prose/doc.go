// Package prose holds the oracles of the sentences benchbook writes about a
// result (bench.Sentences): for every claim a predicate that says, from the
// result's own numbers, whether the sentence is true. The predicates are
// written apart from the generators: they recompute medians, ratios,
// spreads, pair shares, tests and page-fault counts from the raw samples
// (package figures, with gonum), and never call the functions that render
// the sentences. docs/prose.md lists each claim with its predicate.
//
// Intervals and p-values of the rank and sign tests are read from the
// result as stored: benchbook verify recomputes them from the samples, so a
// predicate may rely on them.
package prose
