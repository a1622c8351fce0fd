package result

import (
	"fmt"
	"regexp"
	"strconv"
)

var predictRE = regexp.MustCompile(`^\s*([A-Za-z_]\w*)\s*/\s*([A-Za-z_]\w*)\s*(<=|>=|<|>|~)\s*([0-9.eE+-]+)\s*$`)

// ParsePrediction reads "a/b>100", "a/b<1.05" or "a/b~1" (within 5%):
// a claim about the ratio of the medians of two variants in the interleaved
// series, written down before the run.
func ParsePrediction(s string) (*Prediction, error) {
	m := predictRE.FindStringSubmatch(s)
	if m == nil {
		return nil, fmt.Errorf(`predict=%q: write a ratio of two variants and a bound, e.g. predict="sink/discarded>100" or predict="sink/checksum~1"`, s)
	}
	v, err := strconv.ParseFloat(m[4], 64)
	if err != nil || v <= 0 {
		return nil, fmt.Errorf("predict=%q: the bound %s is not a positive number", s, m[4])
	}
	return &Prediction{Text: s, A: m[1], B: m[2], Op: m[3], Value: v}, nil
}

// Judge records the observed ratio and whether the prediction held.
func (p *Prediction) Judge(observed float64) {
	held := false
	switch p.Op {
	case ">":
		held = observed > p.Value
	case ">=":
		held = observed >= p.Value
	case "<":
		held = observed < p.Value
	case "<=":
		held = observed <= p.Value
	case "~":
		held = observed >= p.Value/1.05 && observed <= p.Value*1.05
	}
	p.Observed, p.Held = &observed, &held
}
