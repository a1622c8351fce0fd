package result

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"strconv"

	"github.com/benchbook/benchbook/stdlib/stats"
)

// checksumTolerance is the relative difference a checksum may have: the
// totals are sums of float64 and the expected value is exact in the seed.
const checksumTolerance = 1e-9

// NewSamples summarises samples into a series, with the digest of their
// order.
func NewSamples(ns []float64) *Samples {
	if len(ns) == 0 {
		return nil
	}
	return &Samples{SamplesNS: ns, Summary: stats.Summarize(ns), SHA256: SamplesDigest(ns)}
}

// SamplesDigest binds samples to the order they were taken in: the hex
// SHA-256 of each sample's shortest decimal form (strconv.FormatFloat
// with 'g' and -1), each followed by a newline. A summary cannot see two
// samples swapped; the digest can, so verify catches a series reordered by
// hand.
func SamplesDigest(ns []float64) string {
	h := sha256.New()
	for _, x := range ns {
		h.Write(strconv.AppendFloat(nil, x, 'g', -1, 64))
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (c *Checksum) Judged() *Checksum {
	if c == nil {
		return nil
	}
	out := *c
	out.OK = ChecksumOK(c.Got, c.Want, c.Passes)
	return &out
}

// ChecksumOK says whether a total got over passes passes is want per pass:
// |got/passes - want| <= 1e-9 × max(|want|, 1/passes), the same test as
// |got - want×passes| <= 1e-9 × max(|want×passes|, 1) divided by passes, in
// a form that cannot overflow. Non-finite figures are never ok.
func ChecksumOK(got, want float64, passes int) bool {
	if math.IsNaN(want) || math.IsInf(want, 0) || passes < 0 {
		return false
	}
	if passes == 0 {
		return math.Abs(got) <= checksumTolerance
	}
	p := float64(passes)
	per := got / p
	if math.IsNaN(per) || math.IsInf(per, 0) {
		return false
	}
	return math.Abs(per-want) <= checksumTolerance*math.Max(math.Abs(want), 1/p)
}

// MedianMinFlt is the median of the cold passes' minor page faults.
func (c *Cold) MedianMinFlt() float64 {
	f := make([]float64, len(c.MinFlt))
	for i, v := range c.MinFlt {
		f[i] = float64(v)
	}
	return stats.Median(f)
}

// Finite maps an infinite or undefined figure to 0, since JSON has no
// infinity; a ratio of 0 is read as "undefined".
func Finite(x float64) float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return 0
	}
	return x
}
