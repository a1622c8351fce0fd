// Package ceilings holds the oracles of the sentences that weigh a time
// per element against a ceiling the run measured: one dependent float add
// (the fingerprint's addss) and the bandwidth of its short stream. Each is
// a predicate over the result's numbers, written apart from the sentence
// it judges (internal/findings writes them); internal/prose registers them.
package ceilings
