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

// The oracles of a time per element against the ceiling of one dependent
// float add per element: the latency of a dependent addss the run's
// fingerprint measured, for a variant whose stored assembly adds floats.

// addBand restates how near one add per element "about one" is.
const addBand = 0.10

var floatAddRE = regexp.MustCompile(`(?i)(^|[^a-z0-9_])v?add(ss|sd|ps|pd)([^a-z0-9_]|$)`)

// addRatio is a variant's time per element over the fingerprint's addss
// latency, recomputed; false when the ceiling does not apply.
func addRatio(r *result.Result, variant string) (float64, float64, bool) {
	v := r.Variant(variant)
	e, fp := r.Protocol.Elements, r.Conditions.Fingerprint
	if !figures.Live(v) || e == nil || *e <= 0 || fp == nil || !floatAddRE.MatchString(v.Asm) {
		return 0, 0, false
	}
	lat := 0.0
	for _, x := range fp.Entries {
		if x.Name == "addss" {
			lat = x.NS
		}
	}
	per := figures.Median(figures.Series(r, variant, "interleaved")) / float64(*e)
	if !(lat > 0 && per > 0) {
		return 0, 0, false
	}
	return per / lat, lat, true
}

func addSaid(r *result.Result, s findings.Sentence, lat float64) error {
	per := figures.Median(figures.Series(r, s.Variant, "interleaved")) / float64(*r.Protocol.Elements)
	if !strings.Contains(s.Text, numtext.FormatNS(per)+" per element") || !strings.Contains(s.Text, "addss took "+numtext.FormatNS(lat)) {
		return fail("%s: the times said are not %s per element and %s an add", s.Variant, numtext.FormatNS(per), numtext.FormatNS(lat))
	}
	return nil
}

func AddUnder(r *result.Result, s findings.Sentence) error {
	k, lat, ok := addRatio(r, s.Variant)
	if !ok {
		return fail("%s: the add ceiling does not apply (no elements=, no fingerprint addss, or no float add in its assembly)", s.Variant)
	}
	if !(k < 1-addBand) {
		return fail("%s: says under one dependent add per element, it takes %.3g of one", s.Variant, k)
	}
	return addSaid(r, s, lat)
}

func AddAt(r *result.Result, s findings.Sentence) error {
	k, lat, ok := addRatio(r, s.Variant)
	if !ok {
		return fail("%s: the add ceiling does not apply (no elements=, no fingerprint addss, or no float add in its assembly)", s.Variant)
	}
	if k < 1-addBand || k > 1+addBand {
		return fail("%s: says about one dependent add per element, it takes %.3g of one", s.Variant, k)
	}
	return addSaid(r, s, lat)
}
