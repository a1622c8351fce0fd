package prose

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/benchbook/benchbook/internal/asm"
	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/prose/figures"
	"github.com/benchbook/benchbook/internal/result"
)

// The oracles of the controls (pages=huge, pad=), the stride finding, the
// load's kind and the worst operation's cause.

var (
	strideRE   = regexp.MustCompile(`steps ([0-9.]+) (KiB|MiB|GiB|bytes) per access`)
	strideOfRE = regexp.MustCompile(`stride of ([0-9.]+ (KiB|MiB|GiB))`)
)

// strideBytes reads the stride a sentence states.
func strideBytes(text string) (int64, bool) {
	m := strideRE.FindStringSubmatch(text)
	if m == nil {
		return 0, false
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return 0, false
	}
	mult := map[string]float64{"bytes": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}[m[2]]
	return int64(v * mult), true
}

// innerStrides are the strides of the innermost loops' memory accesses in
// a stored assembly text, read with internal/asm's parser and loop
// analysis (the library; which stride counts is decided here).
func innerStrides(r *result.Result, text string) []int64 {
	strides, err := asm.TextStrides(text, r.Kernel.Lang, r.Conditions.Machine.Arch)
	if err != nil {
		return nil
	}
	var out []int64
	for _, st := range strides {
		out = append(out, st.Bytes)
	}
	return out
}

// asmHolds: an innermost loop of the assembly steps b bytes per access.
func asmHolds(r *result.Result, text string, b int64) bool {
	return slices.Contains(innerStrides(r, text), b)
}

// stride: the stated stride is a power of two of at least 4 KiB, the
// variant's assembly steps by it, and no control measured set conflicts.
func stride(r *result.Result, s findings.Sentence) error {
	b, ok := strideBytes(s.Text)
	if !ok {
		return fail("no stride in %q", s.Text)
	}
	if b < 4096 || b&(b-1) != 0 {
		return fail("%s: says %d bytes is a power-of-two stride of at least 4 KiB", s.Variant, b)
	}
	v := r.Variant(s.Variant)
	if v == nil || !asmHolds(r, v.Asm, b) {
		return fail("%s: the stored assembly does not step %d bytes", s.Variant, b)
	}
	if r.Control != nil && r.Control.Kind == result.ControlPad {
		return fail("%s: says set conflicts are not measured, a pad= control ran", s.Variant)
	}
	return nil
}

// tlbTested: every huge-side process held huge pages and no 4 KiB-side
// one did.
func tlbTested(c *result.Control) bool {
	return c != nil && c.Pages != nil && c.BasePages != nil && c.Pages.Processes > 0 && c.Pages.WithHuge == c.Pages.Processes &&
		c.BasePages.Processes > 0 && c.BasePages.WithHuge == 0
}

// controlPages: "does not test the TLB" exactly when tlbTested is false.
func controlPages(r *result.Result, s findings.Sentence) error {
	if r.Control == nil || r.Control.Kind != result.ControlPages {
		return fail("a pages sentence without a pages=huge control")
	}
	if says := strings.Contains(s.Text, "does not test the TLB"); says == tlbTested(r.Control) {
		return fail("says the TLB is tested: %v; huge side %+v, 4 KiB side %+v", !says, r.Control.Pages, r.Control.BasePages)
	}
	return nil
}

// controlVerdict: a mechanism is named only from its control, and the
// verdict word is the band rule's on the stored interval (control over
// default).
func controlVerdict(r *result.Result, s findings.Sentence) error {
	if r.Control == nil || r.Baseline == nil {
		return fail("a control verdict without a control")
	}
	var v *result.VariantVerdict
	for i := range r.Baseline.Verdicts {
		if r.Baseline.Verdicts[i].Name == s.Variant {
			v = &r.Baseline.Verdicts[i]
		}
	}
	if v == nil {
		return fail("%s: no verdict under the control", s.Variant)
	}
	band := figures.Resolve(r) / 2
	faster := v.CIHigh > 0 && v.CIHigh <= 1-band
	slower := v.CILow >= 1+band
	within := v.CILow > 1-band && v.CIHigh < 1+band
	switch {
	case strings.Contains(s.Text, " faster ") && !faster, strings.Contains(s.Text, " slower ") && !slower,
		strings.Contains(s.Text, "no difference between") && !within, strings.Contains(s.Text, "undefined") && (faster || slower || within):
		return fail("%s: the verdict said does not follow from [%g, %g] and the band ±%g", s.Variant, v.CILow, v.CIHigh, band)
	}
	if strings.Contains(s.Text, "TLB misses") && !(r.Control.Kind == result.ControlPages && tlbTested(r.Control) && faster) {
		return fail("%s: names the TLB without huge pages on one side only and a faster verdict", s.Variant)
	}
	if strings.Contains(s.Text, "conflict in the same cache sets") {
		var b int64
		ok := false
		if m := strideOfRE.FindStringSubmatch(s.Text); m != nil {
			b, ok = strideBytes("steps " + m[1] + " per access")
		}
		if r.Control.Kind != result.ControlPad || !faster || !ok || b&(b-1) != 0 || !asmHolds(r, r.Baseline.Asm[s.Variant], b) {
			return fail("%s: names set conflicts without a faster padded build over a power-of-two stride in the unpadded assembly", s.Variant)
		}
	}
	return nil
}

// loadKind: the kind and the number of threads said are the protocol's.
func loadKind(r *result.Result, s findings.Sentence) error {
	p := r.Protocol
	if p.Load == 0 || !strings.HasPrefix(s.Text, "the load was "+p.LoadKind+":") {
		return fail("says %q, load=%s:%d", s.Text, p.LoadKind, p.Load)
	}
	if !strings.Contains(s.Text, strconv.Itoa(p.Load)+" load thread") {
		return fail("the number of load threads said is not %d", p.Load)
	}
	return nil
}
