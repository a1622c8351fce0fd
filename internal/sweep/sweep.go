package sweep

import (
	"debug/elf"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/result"
)

// MaxSweepPoints bounds the points of one sweep (the product of its axes):
// every point is a build and a full protocol run.
const MaxSweepPoints = 64

var paramRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// ParseSweep reads the sweep= key: one axis or two separated by ';'.
// An axis is PARAM:FROM..TO (powers of two from FROM up to TO),
// PARAM:FROM..TO*F (a factor F instead of 2) or PARAM:V1,V2,... (a list).
func ParseSweep(s string) ([]result.Axis, error) {
	parts := strings.Split(s, ";")
	if len(parts) > 2 {
		return nil, fmt.Errorf("sweep=%s: at most two axes, separated by ';'", s)
	}
	var axes []result.Axis
	total := 1
	for _, part := range parts {
		a, err := parseAxis(strings.TrimSpace(part))
		if err != nil {
			return nil, fmt.Errorf("sweep=%s: %w", s, err)
		}
		for _, b := range axes {
			if b.Param == a.Param {
				return nil, fmt.Errorf("sweep=%s: the parameter %s is swept twice", s, a.Param)
			}
		}
		axes = append(axes, a)
		total *= len(a.Values)
	}
	if total < 2 {
		return nil, fmt.Errorf("sweep=%s: a sweep needs at least two points", s)
	}
	if total > MaxSweepPoints {
		return nil, fmt.Errorf("sweep=%s: %d points; the most is %d (each point is a build and a full run)", s, total, MaxSweepPoints)
	}
	return axes, nil
}

func parseAxis(s string) (result.Axis, error) {
	param, spec, ok := strings.Cut(s, ":")
	param = strings.TrimSpace(param)
	if !ok || !paramRE.MatchString(param) {
		return result.Axis{}, fmt.Errorf("%q: write PARAM:FROM..TO, PARAM:FROM..TO*FACTOR or PARAM:V1,V2,... with PARAM a C or Go identifier, e.g. N:4K..64M", s)
	}
	a := result.Axis{Param: param}
	if from, to, isRange := strings.Cut(spec, ".."); isRange {
		factor := int64(2)
		if t, f, ok := strings.Cut(to, "*"); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
			if err != nil || n < 2 {
				return result.Axis{}, fmt.Errorf("%s: the factor %q is not a whole number >= 2", param, f)
			}
			factor, to = n, t
		}
		lo, err := numtext.ParseSize(from)
		if err != nil {
			return result.Axis{}, fmt.Errorf("%s: %w", param, err)
		}
		hi, err := numtext.ParseSize(to)
		if err != nil {
			return result.Axis{}, fmt.Errorf("%s: %w", param, err)
		}
		if hi < lo {
			return result.Axis{}, fmt.Errorf("%s: the range %s..%s runs backwards", param, from, to)
		}
		for v := lo; v <= hi; v *= factor {
			a.Values = append(a.Values, v)
			if len(a.Values) > MaxSweepPoints || v > math.MaxInt64/factor {
				break
			}
		}
		return a, nil
	}
	seen := map[int64]bool{}
	for _, f := range strings.Split(spec, ",") {
		v, err := numtext.ParseSize(f)
		if err != nil {
			return result.Axis{}, fmt.Errorf("%s: %w", param, err)
		}
		if seen[v] {
			return result.Axis{}, fmt.Errorf("%s: the value %s is listed twice", param, f)
		}
		seen[v] = true
		a.Values = append(a.Values, v)
	}
	return a, nil
}

// Points are the sweep's points: the product of the axes, the first axis
// varying slowest. Each is one value per axis.
func Points(axes []result.Axis) [][]int64 {
	pts := [][]int64{{}}
	for _, a := range axes {
		var next [][]int64
		for _, p := range pts {
			for _, v := range a.Values {
				next = append(next, append(append([]int64{}, p...), v))
			}
		}
		pts = next
	}
	return pts
}

// BytesExpr is the bytes= key: Factor times the value of Param.
type BytesExpr struct {
	Factor int64
	Param  string
}

var bytesRE = regexp.MustCompile(`^\s*(?:([0-9]+)\s*\*\s*([A-Za-z_]\w*)|([A-Za-z_]\w*)\s*\*\s*([0-9]+)|([A-Za-z_]\w*))\s*$`)

// ParseBytesExpr reads bytes=4*N, bytes=N*4 or bytes=N.
func ParseBytesExpr(s string) (*BytesExpr, error) {
	m := bytesRE.FindStringSubmatch(s)
	if m == nil {
		return nil, fmt.Errorf("bytes=%s: write INT*PARAM, PARAM*INT or PARAM, e.g. bytes=4*N", s)
	}
	e := &BytesExpr{Factor: 1, Param: m[5]}
	num := ""
	switch {
	case m[2] != "":
		num, e.Param = m[1], m[2]
	case m[3] != "":
		num, e.Param = m[4], m[3]
	}
	if num != "" {
		n, err := strconv.ParseInt(num, 10, 64)
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("bytes=%s: %s is not a positive whole number", s, num)
		}
		e.Factor = n
	}
	return e, nil
}

func (e *BytesExpr) String() string { return fmt.Sprintf("%d*%s", e.Factor, e.Param) }

// Eval is the working set of a point with the given parameter values.
func (e *BytesExpr) Eval(params map[string]int64) (int64, error) {
	v, ok := params[e.Param]
	if !ok {
		return 0, fmt.Errorf("bytes=%s: %s is not a swept parameter", e, e.Param)
	}
	return e.Factor * v, nil
}

// SectionBytes sums the sizes of the static data sections of an ELF
// binary: .data and .bss (C), and Go's .data, .noptrdata, .bss, .noptrbss.
func SectionBytes(path string) (int64, error) {
	f, err := elf.Open(path)
	if err != nil {
		return 0, fmt.Errorf("working set of %s: %w", path, err)
	}
	defer f.Close()
	var n int64
	for _, s := range f.Sections {
		switch s.Name {
		case ".data", ".bss", ".noptrdata", ".noptrbss":
			n += int64(s.Size)
		}
	}
	return n, nil
}

// FitSlack is how far (bytes) a point's static data may lie from the
// fitted line and still count as on it: section alignment pads by less.
const FitSlack = 64

// Fit is bytes = A + sum of Coef[i]*feature[i] over the points.
type Fit struct {
	A     float64
	Coef  []float64
	Exact bool // every point within FitSlack of the line
}

// features are what static data can grow with: each parameter and, with
// two axes, their product (a static array [N][M]).
func features(values []int64) []float64 {
	f := make([]float64, 0, 3)
	for _, v := range values {
		f = append(f, float64(v))
	}
	if len(values) == 2 {
		f = append(f, float64(values[0])*float64(values[1]))
	}
	return f
}

// FitSections fits the static data sizes of the points (sections[i] of
// the point with values pts[i]) to a line in the features by least
// squares, and says whether it is exact. Scaling bytes of a point are
// the fit's value minus A: the static arrays that grow with the sweep.
func FitSections(pts [][]int64, sections []int64) (Fit, error) {
	if len(pts) != len(sections) || len(pts) < 2 {
		return Fit{}, fmt.Errorf("the fit needs the static data of at least two points")
	}
	nf := len(features(pts[0]))
	// Normal equations on centred, scaled columns (the values span 1e3 to
	// 1e9): solved by Gaussian elimination with partial pivoting.
	cols := nf + 1
	x := make([][]float64, len(pts))
	for i, p := range pts {
		x[i] = append([]float64{1}, features(p)...)
	}
	scale := make([]float64, cols)
	for j := 0; j < cols; j++ {
		for i := range x {
			scale[j] = math.Max(scale[j], math.Abs(x[i][j]))
		}
		if scale[j] == 0 {
			scale[j] = 1
		}
	}
	ata := make([][]float64, cols)
	for j := range ata {
		ata[j] = make([]float64, cols+1)
		for k := 0; k < cols; k++ {
			for i := range x {
				ata[j][k] += x[i][j] / scale[j] * x[i][k] / scale[k]
			}
		}
		for i := range x {
			ata[j][cols] += x[i][j] / scale[j] * float64(sections[i])
		}
	}
	coef, ok := solve(ata)
	if !ok {
		// Fewer distinct points than features (e.g. one axis has one
		// value): drop the product and try again with one feature less.
		if nf == 3 {
			return fitPartial(pts, sections)
		}
		return Fit{}, fmt.Errorf("the points' static data cannot be fitted: too few distinct values")
	}
	fit := Fit{A: coef[0] / scale[0], Exact: true}
	for j := 1; j < cols; j++ {
		fit.Coef = append(fit.Coef, coef[j]/scale[j])
	}
	for i, p := range pts {
		if math.Abs(fit.at(p)-float64(sections[i])) > FitSlack {
			fit.Exact = false
		}
	}
	return fit, nil
}

// fitPartial fits two axes where one has a single value: the product is
// then proportional to the other axis.
func fitPartial(pts [][]int64, sections []int64) (Fit, error) {
	for axis := 0; axis < 2; axis++ {
		one := make([][]int64, len(pts))
		for i, p := range pts {
			one[i] = []int64{p[axis]}
		}
		f, err := FitSections(one, sections)
		if err != nil {
			continue
		}
		// Express it in the three features: coefficient on this axis.
		coef := []float64{0, 0, 0}
		coef[axis] = f.Coef[0]
		return Fit{A: f.A, Coef: coef, Exact: f.Exact}, nil
	}
	return Fit{}, fmt.Errorf("the points' static data cannot be fitted")
}

func (f Fit) at(values []int64) float64 {
	y := f.A
	for j, x := range features(values) {
		y += f.Coef[j] * x
	}
	return y
}

// Scaling is the bytes of the point with these values that grow with the
// sweep: the fit without its constant, rounded to a whole byte.
func (f Fit) Scaling(values []int64) int64 { return int64(math.Round(f.at(values) - f.A)) }

// solve solves the augmented system m by Gaussian elimination; false when
// it is singular.
func solve(m [][]float64) ([]float64, bool) {
	n := len(m)
	for c := 0; c < n; c++ {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(m[r][c]) > math.Abs(m[p][c]) {
				p = r
			}
		}
		if math.Abs(m[p][c]) < 1e-9 {
			return nil, false
		}
		m[c], m[p] = m[p], m[c]
		for r := 0; r < n; r++ {
			if r == c {
				continue
			}
			k := m[r][c] / m[c][c]
			for j := c; j <= n; j++ {
				m[r][j] -= k * m[c][j]
			}
		}
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = m[i][n] / m[i][i]
	}
	return x, true
}

// WorkingSet gives each point its bytes: from bytes=EXPR when given
// (rule "bytes=4*N"), else from the fit of the static data sections when
// it is exact (rule "static data fit"), else null (rule says why).
func WorkingSet(pts [][]int64, params []string, sections []int64, expr *BytesExpr) ([]*int64, string, error) {
	out := make([]*int64, len(pts))
	if expr != nil {
		for i, p := range pts {
			m := map[string]int64{}
			for j, name := range params {
				m[name] = p[j]
			}
			b, err := expr.Eval(m)
			if err != nil {
				return nil, "", err
			}
			out[i] = &b
		}
		return out, "bytes=" + expr.String(), nil
	}
	fit, err := FitSections(pts, sections)
	if err != nil {
		return out, "none: " + err.Error(), nil
	}
	if !fit.Exact {
		return out, "none: the static data sections do not grow linearly with the sweep (heap allocation?); give bytes=EXPR, e.g. bytes=4*" + params[0], nil
	}
	for i, p := range pts {
		b := fit.Scaling(p)
		if b <= 0 {
			return make([]*int64, len(pts)), "none: no static data grows with the sweep (heap allocation?); give bytes=EXPR, e.g. bytes=4*" + params[0], nil
		}
		out[i] = &b
	}
	return out, RuleFit, nil
}

// RuleFit is the bytes rule of a working set read from the static data.
const RuleFit = "static data fit"
