package protocol

import (
	"os"
	"strings"
	"testing"
)

// storedAsm is a variant's assembly as the notebook's walk stored it.
func storedAsm(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile("../../internal/asm/testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func controlTexts(r *Result, variant string) string {
	var out []string
	for _, s := range Sentences(r) {
		if s.Topic == TopicControl && s.Variant == variant {
			out = append(out, s.Text)
		}
	}
	return strings.Join(out, " | ")
}

// Without a control, the stride finding names set conflicts as likely for
// the column walk (8 KiB steps, stored assembly), says they are not
// measured and suggests pad=; the row walk (16-byte steps) gets none.
func TestStrideFindingOnStoredAssembly(t *testing.T) {
	r := &Result{Kernel: Kernel{Name: "walk", Lang: "c"}, Variants: []Variant{
		{Name: "rows", Asm: storedAsm(t, "stride_walk_rows.txt")},
		{Name: "cols", Asm: storedAsm(t, "stride_walk_cols.txt")},
		{Name: "padded", Asm: storedAsm(t, "stride_walk_cols_pad64.txt")},
	}}
	cols := controlTexts(r, "cols")
	for _, want := range []string{"8 KiB", "set conflicts are likely", "not measured here", "pad="} {
		if !strings.Contains(cols, want) {
			t.Errorf("cols: %q lacks %q", cols, want)
		}
	}
	for _, v := range []string{"rows", "padded"} {
		if s := controlTexts(r, v); s != "" {
			t.Errorf("%s: %q, want no stride finding", v, s)
		}
	}
}

// The oracle of the control sentences: set conflicts are named as the
// cause only for a faster padded build whose unpadded assembly strides a
// power of two; the TLB only when every huge-side process held huge pages,
// no 4 KiB-side process did, and the verdict is faster. Every combination
// of verdict, stride and pages is tried.
func TestControlSentencesNameOnlyWhatWasMeasured(t *testing.T) {
	cols, rows := storedAsm(t, "stride_walk_cols.txt"), storedAsm(t, "stride_walk_rows.txt")
	verdicts := []VariantVerdict{
		{Name: "v", Verdict: VerdictFaster, Ratio: 0.2, CILow: 0.15, CIHigh: 0.3},
		{Name: "v", Verdict: VerdictSlower, Ratio: 1.5, CILow: 1.3, CIHigh: 1.7},
		{Name: "v", Verdict: VerdictNoDifference, Ratio: 1.0, CILow: 0.995, CIHigh: 1.004},
		{Name: "v", Verdict: VerdictUndefined, Ratio: 0.9, CILow: 0.5, CIHigh: 1.5},
	}
	for _, v := range verdicts {
		for _, base := range []string{cols, rows} {
			r := &Result{Kernel: Kernel{Name: "walk", Lang: "c"}, Protocol: Protocol{Resolve: 0.02},
				Control:  &Control{Kind: ControlPad, Value: "64"},
				Baseline: &Baseline{Verdicts: []VariantVerdict{v}, Asm: map[string]string{"v": base}}}
			s := controlTexts(r, "v")
			named := strings.Contains(s, "conflict in the same cache sets")
			if want := v.Verdict == VerdictFaster && base == cols; named != want {
				t.Errorf("pad, %s, power-of-two stride %v: names set conflicts %v: %q", v.Verdict, base == cols, named, s)
			}
			if v.Verdict == VerdictUndefined && !strings.Contains(s, "names no mechanism") {
				t.Errorf("pad, undefined: %q, want it to say it names no mechanism", s)
			}
		}
		for _, got := range []struct {
			huge, base PagesGot
		}{
			{PagesGot{Mode: "huge", Processes: 20, WithHuge: 20, MinKB: 16384, MaxKB: 16384}, PagesGot{Mode: "4k", Processes: 20}},
			{PagesGot{Mode: "huge", Processes: 20, WithHuge: 19, MaxKB: 16384}, PagesGot{Mode: "4k", Processes: 20}},
			{PagesGot{Mode: "huge", Processes: 20, WithHuge: 20, MinKB: 2048, MaxKB: 2048}, PagesGot{Mode: "4k", Processes: 20, WithHuge: 1, MaxKB: 2048}},
		} {
			huge, base := got.huge, got.base
			r := &Result{Kernel: Kernel{Name: "walk", Lang: "c"}, Protocol: Protocol{Resolve: 0.02},
				Control:  &Control{Kind: ControlPages, Value: "huge", Pages: &huge, BasePages: &base},
				Baseline: &Baseline{Verdicts: []VariantVerdict{v}}}
			s := controlTexts(r, "v") + controlTexts(r, "")
			measured := huge.WithHuge == huge.Processes && base.WithHuge == 0
			if named := strings.Contains(s, "TLB misses"); named != (measured && v.Verdict == VerdictFaster) {
				t.Errorf("pages %+v / %+v, %s: names TLB misses %v: %q", huge, base, v.Verdict, named, s)
			}
			if !measured && !strings.Contains(s, "does not test the TLB") {
				t.Errorf("pages %+v / %+v: %q does not say the TLB is untested", huge, base, s)
			}
		}
	}
}
