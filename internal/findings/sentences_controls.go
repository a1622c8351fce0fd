package findings

import (
	"fmt"

	"github.com/benchbook/benchbook/internal/asm"
	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/result"
)

// TopicControl: what a control (pages=, pad=; controls.go) showed, and the
// stride finding that suggests one.
const (
	TopicControl = "control"
	KindControl  = "control"
	KindStride   = "stride"
)

// StrideConflictMin is the smallest power-of-two stride the stride finding
// names: from 4 KiB on, every access of the walk falls at the same offset
// in a page, so in the same few sets of a cache indexed by those bits.
const StrideConflictMin = 4096

// controlSentences say what the control showed per variant, naming a
// mechanism only when the control that isolates it was measured: set
// conflicts only when the padded build ran faster beside the unpadded one
// and the unpadded walk's stride is a power of two; the TLB only when huge
// pages were obtained on the huge side, none on the 4 KiB side, and the
// verdict says faster. Without a control, the stride finding suggests one.
func controlSentences(f *facts) []Sentence {
	r := f.r
	if r.Control == nil || r.Baseline == nil {
		return strideSentences(r)
	}
	var out []Sentence
	if r.Control.Kind == result.ControlPages {
		out = append(out, said(ClaimControlPages, "", TopicControl, KindControl, "", pagesObtainedText(r.Control))...)
	}
	for _, v := range r.Baseline.Verdicts {
		out = append(out, said(ClaimControlVerdict, "", TopicControl, KindControl, v.Name, controlVerdictText(r, v))...)
	}
	return out
}

// pagesObtainedText says what each side of pages=huge got.
func pagesObtainedText(c *result.Control) string {
	side := func(p *result.PagesGot) string {
		if p == nil || p.Processes == 0 {
			return "no pages record (a harness before version 7)"
		}
		s := fmt.Sprintf("%d of %d processes held huge pages (AnonHugePages %s to %s)", p.WithHuge, p.Processes,
			bytesText(p.MinKB*1024), bytesText(p.MaxKB*1024))
		if p.CollapseFailed > 0 {
			s += fmt.Sprintf("; MADV_COLLAPSE failed in %d (errno %d)", p.CollapseFailed, p.CollapseErrno)
		}
		return s
	}
	text := "pages=huge: on the huge side " + side(c.Pages) + "; on the 4 KiB side " + side(c.BasePages)
	switch {
	case !c.Pages.Obtained():
		text += ": huge pages were not obtained in every process of the huge side, so this run does not test the TLB"
	case !c.BasePages.None():
		text += ": the 4 KiB side held huge pages too, so this run does not test the TLB"
	}
	return text
}

// controlVerdictText is one variant's verdict under the control, and the
// mechanism it shows or rules out.
func controlVerdictText(r *result.Result, v result.VariantVerdict) string {
	control, base := result.ControlName(r)
	switch v.Verdict {
	case result.VerdictFaster, result.VerdictSlower, result.VerdictNoDifference:
	case result.VerdictUndefined:
		return fmt.Sprintf("%s: %s against %s undefined, %s, measured in the same run: the interval is not narrow enough to tell, so this run names no mechanism",
			v.Name, control, base, numtext.FormatInterval(v.CILow, v.CIHigh))
	default:
		return ""
	}
	what := fmt.Sprintf("%s: with %s %s than with %s, measured in the same run", v.Name, control, controlRatioText(v), base)
	if v.Verdict == result.VerdictNoDifference {
		what = fmt.Sprintf("%s: no difference between %s and %s (%s within ±%s), measured in the same run", v.Name, control, base,
			numtext.FormatInterval(v.CILow, v.CIHigh), percent(r.Protocol.Resolve/2))
	}
	switch r.Control.Kind {
	case result.ControlPages:
		if !r.Control.Pages.Obtained() || !r.Control.BasePages.None() {
			return what
		}
		switch v.Verdict {
		case result.VerdictFaster:
			return what + ": TLB misses of the 4 KiB pages account for the difference"
		case result.VerdictNoDifference:
			return what + ": the TLB does not explain its time"
		}
		return what + ": huge pages did not help it"
	case result.ControlPad:
		stride, ok := powerStride(r, r.Baseline.Asm[v.Name])
		switch {
		case v.Verdict == result.VerdictFaster && ok:
			return what + fmt.Sprintf(": the unpadded walk's stride of %s, a power of two, made its accesses conflict in the same cache sets, and padding relieved it", bytesText(stride))
		case v.Verdict == result.VerdictFaster:
			return what
		case ok:
			return what + fmt.Sprintf(": padding by %s bytes does not relieve its %s stride, so set conflicts are not shown by this control (another pad may differ)", r.Control.Value, bytesText(stride))
		}
		return what
	}
	return what
}

// controlRatioText is "2.1x faster [1.9, 2.3]" or "1.3x slower [...]".
func controlRatioText(v result.VariantVerdict) string {
	word, iv := times(v.Ratio, v.CILow, v.CIHigh)
	return word + " " + iv
}

// strideSentences: per live variant whose innermost loop walks memory with
// a power-of-two stride of at least StrideConflictMin, that set conflicts
// are likely and which control tests them.
func strideSentences(r *result.Result) []Sentence {
	var out []Sentence
	for _, v := range r.Variants {
		if v.Dead || v.Hollow {
			continue
		}
		stride, ok := powerStride(r, v.Asm)
		if !ok {
			continue
		}
		text := fmt.Sprintf("%s: its inner loop steps %s per access, a power of two: every access lands at the same offset of a page, so in the same few cache sets, "+
			"and set conflicts are likely; they are not measured here: pad=BYTES (e.g. pad=128) measures rows padded by BENCH_PAD bytes beside these", v.Name, bytesText(stride))
		out = append(out, said(ClaimStride, "", TopicControl, KindStride, v.Name, text)...)
	}
	return out
}

// powerStride is the largest power-of-two stride of at least
// StrideConflictMin in the innermost loops of a stored assembly text.
func powerStride(r *result.Result, text string) (int64, bool) {
	if text == "" {
		return 0, false
	}
	strides, err := asm.TextStrides(text, r.Kernel.Lang, r.Conditions.Machine.Arch)
	if err != nil {
		return 0, false
	}
	var best int64
	for _, s := range strides {
		if s.PowerOfTwo(StrideConflictMin) && s.Bytes > best {
			best = s.Bytes
		}
	}
	return best, best > 0
}

// bytesText writes a byte count as "8 KiB", "16 MiB" or "64 bytes".
func bytesText(b int64) string {
	s := numtext.FormatBytes(b)
	if last := s[len(s)-1]; last == 'K' || last == 'M' || last == 'G' {
		return s[:len(s)-1] + " " + string(last) + "iB"
	}
	return s + " bytes"
}
