package sweep

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/result"
)

var sweepPredictRE = regexp.MustCompile(`^\s*time\(([^)]*)\)\s*/\s*time\(([^)]*)\)\s*(<=|>=|<|>|~)\s*([0-9.eE+-]+)\s*$`)

// IsSweepPrediction says whether s is written as a sweep's scaling claim.
func IsSweepPrediction(s string) bool { return strings.HasPrefix(strings.TrimSpace(s), "time(") }

// ParseSweepPrediction reads "time(64M)/time(1M)~64" against the axes: each
// time() names one point, one value per axis separated by commas.
func ParseSweepPrediction(s string, axes []result.Axis) (*result.SweepPrediction, error) {
	m := sweepPredictRE.FindStringSubmatch(s)
	if m == nil {
		return nil, fmt.Errorf(`predict=%q: a sweep's prediction is a ratio of two points' times and a bound, e.g. predict="time(64M)/time(1M)~64" (~ within the interval, or <, >)`, s)
	}
	v, err := strconv.ParseFloat(m[4], 64)
	if err != nil || v <= 0 {
		return nil, fmt.Errorf("predict=%q: the bound %s is not a positive number", s, m[4])
	}
	p := &result.SweepPrediction{Text: s, Op: m[3], Value: v}
	for i, arg := range []string{m[1], m[2]} {
		fields := strings.Split(arg, ",")
		if len(fields) != len(axes) {
			return nil, fmt.Errorf("predict=%q: time(%s) needs one value per swept parameter (%d)", s, arg, len(axes))
		}
		var pt []int64
		for j, f := range fields {
			x, err := numtext.ParseSize(f)
			if err != nil {
				return nil, fmt.Errorf("predict=%q: %w", s, err)
			}
			found := false
			for _, y := range axes[j].Values {
				found = found || x == y
			}
			if !found {
				return nil, fmt.Errorf("predict=%q: %s=%s is not a point of the sweep", s, axes[j].Param, strings.TrimSpace(f))
			}
			pt = append(pt, x)
		}
		if i == 0 {
			p.A = pt
		} else {
			p.B = pt
		}
	}
	return p, nil
}
