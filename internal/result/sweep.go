package result

import (
	"strings"

	"github.com/benchbook/benchbook/internal/numtext"
)

// Axis is one parameter of a sweep and the values it takes.
type Axis struct {
	Param  string  `json:"param"`
	Values []int64 `json:"values"`
}

// SweepPoint is what a result of a sweep carries (Result.Sweep): which
// sweep it belongs to, the value of each parameter, and its working set.
type SweepPoint struct {
	ID    string `json:"id"`    // shared by all points of one sweep
	Index int    `json:"index"` // position in the sweep, from 0
	Of    int    `json:"of"`    // points in the sweep
	Param string `json:"param"` // the first axis
	Value int64  `json:"value"` // its value at this point
	// Params holds every axis's value when the sweep has two axes.
	Params map[string]int64 `json:"params,omitempty"`
	// Elements is the work per pass time per element divides by: the
	// elements= key when given, else the product of the axis values.
	Elements int64 `json:"elements"`
	// Bytes is the working set of the point: BytesRule says how it was
	// found (see WorkingSet); null when it could not be.
	Bytes     *int64 `json:"bytes"`
	BytesRule string `json:"bytes_rule"`
	// SectionBytes are the sizes of the binary's static data sections
	// (.data and .bss; Go's .data, .noptrdata, .bss and .noptrbss): the
	// raw numbers the fit of Bytes is made from.
	SectionBytes int64 `json:"section_bytes"`
	// Summary is on the last point only: what belongs to the whole sweep.
	Summary *SweepSummary `json:"summary,omitempty"`
}

// SweepSummary is what a sweep records once, on its last point.
type SweepSummary struct {
	Axes []Axis `json:"axes"`
	// Variant is the variant whose interleaved samples give the time per
	// element of the plot, the steps and the prediction.
	Variant string `json:"variant"`
	// OrderSeed seeds the random order the points take in each phase;
	// Order lists it: per turn (phase or fresh round), the point indexes
	// in the order their processes ran.
	OrderSeed string  `json:"order_seed"`
	Order     [][]int `json:"order"`
	// Caches are the cache sizes marked on the plot, of the CPU the
	// processes ran on.
	Caches     []CacheMark      `json:"caches"`
	Prediction *SweepPrediction `json:"prediction,omitempty"`
}

// CacheMark is one cache level of the CPU a sweep ran on.
type CacheMark struct {
	Name   string `json:"name"` // L1d, L2, L3
	Bytes  int64  `json:"bytes"`
	Shared string `json:"shared_cpu_list,omitempty"`
	Source string `json:"source"` // where the size was read
}

// SortedKeys are the keys of m with first first, then the others in order.
func SortedKeys(m map[string]int64, first string) []string {
	keys := []string{first}
	var rest []string
	for k := range m {
		if k != first {
			rest = append(rest, k)
		}
	}
	if len(rest) == 1 {
		keys = append(keys, rest[0])
	}
	return keys
}

// SweepPointLabel names a point in messages: N=4K, or N=4K,M=8.
func SweepPointLabel(p SweepPoint) string {
	if len(p.Params) > 1 {
		var parts []string
		for _, k := range SortedKeys(p.Params, p.Param) {
			parts = append(parts, k+"="+numtext.FormatSize(p.Params[k]))
		}
		return strings.Join(parts, ",")
	}
	return p.Param + "=" + numtext.FormatSize(p.Value)
}

// PointLabel names the sweep point of a result (N=4K), "" if none.
func PointLabel(r *Result) string {
	if r == nil || r.Sweep == nil {
		return ""
	}
	return SweepPointLabel(*r.Sweep)
}
