package ceilings

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/prose/figures"
	"github.com/benchbook/benchbook/internal/result"
)

// fail is an oracle's verdict that the sentence is false, and why.
func fail(format string, a ...any) error { return fmt.Errorf(format, a...) }

// The oracles of a variant's cycles per element against the ceiling of
// one dependent float add per element: the latency in cycles of a
// dependent addss the run's fingerprint measured, for a variant whose
// stored assembly adds floats, its cycles at the run's clock (not its
// nanoseconds against the fingerprint's: the fingerprint's clock, after
// its memory-bound chases, need not be the kernel's).

// addBand restates how near one add per element "about one" is.
const addBand = 0.10

var floatAddRE = regexp.MustCompile(`(?i)(^|[^a-z0-9_])v?add(ss|sd|ps|pd)([^a-z0-9_]|$)`)

// addRatio is a variant's cycles per element over the fingerprint's addss
// cycles, recomputed; false when the ceiling does not apply.
func addRatio(r *result.Result, variant string) (k, cyc, lat float64, ok bool) {
	v := r.Variant(variant)
	e, fp := r.Protocol.Elements, r.Conditions.Fingerprint
	if !figures.Live(v) || e == nil || *e <= 0 || fp == nil || !floatAddRE.MatchString(v.Asm) {
		return 0, 0, 0, false
	}
	for _, x := range fp.Entries {
		if x.Name == "addss" {
			lat = x.Cycles
		}
	}
	cyc = figures.CyclesPerElement(r, variant)
	if !(lat > 0 && cyc > 0) {
		return 0, 0, 0, false
	}
	return cyc / lat, cyc, lat, true
}

func addSaid(s findings.Sentence, cyc, lat float64) error {
	if !strings.Contains(s.Text, numtext.Sig(cyc)+" cycles per element") || !strings.Contains(s.Text, "addss takes "+numtext.Sig(lat)+" cycles") {
		return fail("%s: the cycles said are not %s per element and %s an add", s.Variant, numtext.Sig(cyc), numtext.Sig(lat))
	}
	return nil
}

func AddUnder(r *result.Result, s findings.Sentence) error {
	k, cyc, lat, ok := addRatio(r, s.Variant)
	if !ok {
		return fail("%s: the add ceiling does not apply (no elements=, no clock, no fingerprint addss, or no float add in its assembly)", s.Variant)
	}
	if !(k < 1-addBand) {
		return fail("%s: says under one dependent add per element, it takes %.3g of one", s.Variant, k)
	}
	return addSaid(s, cyc, lat)
}

func AddAt(r *result.Result, s findings.Sentence) error {
	k, cyc, lat, ok := addRatio(r, s.Variant)
	if !ok {
		return fail("%s: the add ceiling does not apply (no elements=, no clock, no fingerprint addss, or no float add in its assembly)", s.Variant)
	}
	if k < 1-addBand || k > 1+addBand {
		return fail("%s: says about one dependent add per element, it takes %.3g of one", s.Variant, k)
	}
	return addSaid(s, cyc, lat)
}
