package report

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"

	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/machine"
	"github.com/benchbook/benchbook/internal/protocol/benchtest"
	"github.com/benchbook/benchbook/internal/result"
	"github.com/benchbook/benchbook/stdlib/display"
)

// textHashes is, per bench.TextVersion, the SHA-256 of what the tables,
// commentary and findings say of a set of synthetic results. It is a
// change detector, not a check of the text: verify holds text of this
// version to the letter and reads text of another version as a rewording,
// so the version must change when the words do.
var textHashes = map[int]string{
	1: "1c329c5f18f1089e6551ea45817f18812074bfa7c951814b2f667f93122c37e3",
	2: "3b0c42cf8ae035416542b7393000910cf1739b54babbe0347ad7ecf4504a800f",
	3: "cbc8f5731b0efdfb95c131e870d7b1e35141bb71fb0493ae66011700d48b9c94",
	4: "1ab4acdcbe3d646a0e283b5cf6a8c3e0ecb930abb8483ecf454b9dda75243113",
	5: "0bf16a2191f7ea090651aa5a92c84cdf3476471e2aa17ef7619814524dc26438",
	6: "903b4e911612da142fcb95b50e3f3254fcfa9a8ae9c8fb5d702852a641499632",
	7: "4c097e83c4c218d0b5ca6df8bd7b37bed635e7e66fafa8d2e6929dc611316211",
	8: "e73e4d69144e3fb953c71c4e77c88371025f83108aec07aec454a673deb8d327", // the add ceiling in cycles at each figure's own clock
}

// TestTextVersion notices that the text the report writes changed under
// the same bench.TextVersion.
func TestTextVersion(t *testing.T) {
	h := sha256.New()
	for seed := uint64(0); seed <= 6; seed++ {
		r := everything() // every topic (commentary_test.go)
		if seed > 0 {
			r = benchtest.Seed000(seed)
		}
		b := Result(r)
		fmt.Fprintln(h, b[display.MIMEText], b[display.MIMEHTML], Commentary(r))
		if findings.TextVersion >= 3 { // the headline and the collapsed commentary came with version 3
			hb, cb := HeadlineBundle(r), CommentaryBundle(r)
			fmt.Fprintln(h, hb[display.MIMEText], hb[display.MIMEHTML], cb[display.MIMEHTML], cb[display.MIMEText])
		}
		for _, f := range findings.Findings(r) {
			fmt.Fprintln(h, f.Kind, f.Text)
		}
	}
	if findings.TextVersion >= 4 { // version 4 names a control's two sides in its baseline lines and table
		for _, c := range []result.Control{{Kind: result.ControlPad, Value: "64"}, {Kind: result.ControlPages, Value: "huge"}} {
			r := everything()
			r.Control = &c
			b, bb := Result(r), BaselineBundle(r)
			fmt.Fprintln(h, b[display.MIMEText], bb[display.MIMEText], Commentary(r))
			for _, f := range findings.Findings(r) {
				fmt.Fprintln(h, f.Kind, f.Text)
			}
		}
		// and weighs a time per element against one dependent float add.
		r := withAddCeiling(everything())
		for _, s := range findings.Sentences(r) {
			fmt.Fprintln(h, s.Claim, s.Text)
		}
	}
	if findings.TextVersion >= 5 { // version 5 weighs a sweep point's bytes per ns against the fingerprint's stream
		r := withBWCeiling(everything())
		for _, s := range findings.Sentences(r) {
			fmt.Fprintln(h, s.Claim, s.Text)
		}
		sc := SweepCommentary([]*result.Result{r})
		fmt.Fprintln(h, sc[display.MIMEText])
		// and a sweep's headline comes first; a control's headline names
		// the other build ("the build with unpadded rows").
		sh := SweepHeadlineBundle([]*result.Result{r})
		fmt.Fprintln(h, sh[display.MIMEText], sh[display.MIMEHTML])
		for _, c := range []result.Control{{Kind: result.ControlPad, Value: "64"}, {Kind: result.ControlPages, Value: "huge"}} {
			r := everything()
			r.Control = &c
			fmt.Fprintln(h, HeadlineText(r))
		}
	}
	if findings.TextVersion >= 6 { // version 6 names a preemption only when the worst's pass measured one, and divides worsts only then not
		// Two variants of 300,000 operations whose worsts (1 ms and 10 µs)
		// stand alone above their floors; the first's pass waited 900 µs.
		r := everything()
		for i, w := range [][3]int64{{2000000, 900000, 3}, {20000, 0, 0}} {
			delay, nivcsw := w[1], w[2]
			l := &result.Latency{OpsPerPass: 100000, Passes: 3, TicksPerUS: 2000, TicksPerUSStart: 2000, TicksPerUSEnd: 2000,
				MaxTicks: w[0], OverheadTicks: 36, EmptyMaxTicks: 4000, Clock: "rdtsc", CPUFlags: "constant_tsc,nonstop_tsc", Series: "in_process",
				Buckets:       [][2]int64{{40, 299990}, {int64(result.LatencyIndex(9000)), 9}, {int64(result.LatencyIndex(uint64(w[0]))), 1}},
				MaxRunDelayNS: &delay, MaxInvoluntary: &nivcsw}
			l.Summarize()
			r.Variants[i].Latency = l
		}
		refresh(r)
		for _, s := range findings.Sentences(r) {
			fmt.Fprintln(h, s.Claim, s.Text)
		}
	}
	if findings.TextVersion >= 7 { // version 7 takes a before/after's lock-step rounds two at a time, and counts the harness's system calls
		r := everything()
		r.Protocol.StepRounds = result.StepRounds
		// and says what the harness's processes counted of their own system calls.
		r.Protocol.HarnessSyscalls = &result.HarnessSyscalls{AfterDiscarded: 0, Between: 3, Processes: 12}
		refresh(r)
		for _, s := range findings.Sentences(r) {
			fmt.Fprintln(h, s.Claim, s.Text)
		}
		b := Result(r)
		fmt.Fprintln(h, b[display.MIMEText], b[display.MIMEHTML])
	}
	got := hex.EncodeToString(h.Sum(nil))
	if want, ok := textHashes[findings.TextVersion]; !ok || got != want {
		t.Errorf("the text of the synthetic results hashes to %s, not %q as recorded for text version %d: if the wording changed, "+
			"bump bench.TextVersion and record the hash under the new version", got, want, findings.TextVersion)
	}
}

// withBWCeiling makes r the one point of a sweep whose working set is 64
// MiB, on a machine with a 32 MiB last-level cache, with a fingerprint
// whose stream through 64 MiB reads what the first variant reads per ns:
// the first variant is at the stream and the faster second over it.
func withBWCeiling(r *result.Result) *result.Result {
	ws := int64(64 << 20)
	r.Sweep = &result.SweepPoint{ID: "bw", Index: 0, Of: 1, Param: "N", Value: ws / 4, Elements: ws / 4, Bytes: &ws, BytesRule: "bytes=4*N",
		Summary: &result.SweepSummary{Variant: r.Variants[0].Name, Caches: []result.CacheMark{{Name: "L3", Bytes: 32 << 20, Source: "/sys/devices/system/cpu/cpu0/cache"}}}}
	for id := range 2 {
		r.Conditions.Machine.CPUs = append(r.Conditions.Machine.CPUs, machine.CPU{ID: id,
			Caches: []machine.Cache{{Level: 1, Type: "Data", Size: "48K"}, {Level: 2, Type: "Unified", Size: "2048K"}, {Level: 3, Type: "Unified", Size: "32768K"}}})
	}
	gbs := float64(ws) / r.Variants[0].Series.Interleaved.Summary.Median
	trials := []float64{0.97 * gbs, 0.99 * gbs, gbs, 1.01 * gbs, 1.02 * gbs}
	st := machine.Entry{Name: machine.StreamEntry, Unit: "GB/s", Value: gbs, Trials: trials, Bytes: ws}
	st.Noise = machine.NoiseOf(st)
	r.Conditions.Fingerprint = &machine.Fingerprint{Version: machine.FingerprintVersion, Entries: []machine.Entry{st}}
	return r
}

// withAddCeiling gives r elements=, a float add in every variant's
// assembly, a clock estimate of 4190 MHz when it has none, and a
// fingerprint whose dependent addss takes as many cycles as the first
// variant takes per element at that clock, and 17% more nanoseconds (its
// clock lower, as on the Intel VM after the fingerprint's chases): the add
// ceiling's sentences are written.
func withAddCeiling(r *result.Result) *result.Result {
	if r.Protocol.Elements == nil {
		n := int64(1 << 20)
		r.Protocol.Elements = &n
	}
	for i := range r.Variants {
		r.Variants[i].Asm += "\taddss %xmm1, %xmm0\n"
	}
	mhz, _ := findings.FrequencyMHz(r)
	if mhz <= 0 {
		mhz = 4190
		r.Conditions.Before.FreqEstimateMHz = mhz
	}
	per := r.Variants[0].Series.Interleaved.Summary.Median / float64(*r.Protocol.Elements)
	cyc := per * mhz / 1000
	r.Conditions.Fingerprint = &machine.Fingerprint{Entries: []machine.Entry{{Name: "addss", Unit: "cycles", Value: cyc, Cycles: cyc, NS: 1.17 * per}}}
	return r
}
