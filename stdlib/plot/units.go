package plot

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/benchbook/benchbook/internal/numtext"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// Unit is a unit of time for an axis or a label.
type Unit struct {
	Name string  // "ns", "µs", "ms" or "s"
	NS   float64 // nanoseconds in one unit
}

// UnitFor returns the largest unit in which ns is at least 1: 20 gives ns,
// 498000 gives µs, 3e9 gives s.
func UnitFor(ns float64) Unit {
	switch a := math.Abs(ns); {
	case a >= 1e9:
		return Unit{"s", 1e9}
	case a >= 1e6:
		return Unit{"ms", 1e6}
	case a >= 1e3:
		return Unit{"µs", 1e3}
	}
	return Unit{"ns", 1}
}

// FormatNS is bench.FormatNS, the one way a duration is written: three
// significant digits in the unit that suits it ("20.1 ns", "498 µs").
var FormatNS = numtext.FormatNS

// logSpan is the ratio of largest to smallest positive value above which an
// axis is logarithmic.
const logSpan = 100

// axis is how times are drawn along one axis: in which unit, and whether on
// a log scale. On a log scale, values <= 0 cannot be drawn where they are:
// they are drawn at floor (in the unit), and counted.
type axis struct {
	unit    Unit
	log     bool
	floor   float64
	clamped int
}

// chooseAxis picks the axis for a set of series of nanoseconds: the unit of
// the largest median, and a log scale when the positive values span more
// than logSpan. It fails when there is no value at all.
func chooseAxis(series ...[]float64) (axis, error) {
	var (
		n        int
		big      = math.Inf(-1)
		lo, hi   = math.Inf(1), math.Inf(-1)
		anyBelow bool
	)
	for _, s := range series {
		if len(s) == 0 {
			continue
		}
		n += len(s)
		big = max(big, median(s))
		for _, v := range s {
			if v > 0 {
				lo, hi = min(lo, v), max(hi, v)
			} else {
				anyBelow = true
			}
		}
	}
	if n == 0 {
		return axis{}, ErrNoData
	}
	a := axis{unit: UnitFor(big)}
	a.log = hi > 0 && !math.IsInf(lo, 1) && hi/lo > logSpan
	if a.log && anyBelow {
		a.floor = lo / 2 / a.unit.NS
	}
	return a, nil
}

// value returns ns in the axis unit, at the floor if the axis cannot draw it.
func (a *axis) value(ns float64) float64 {
	if a.log && ns <= 0 {
		a.clamped++
		return a.floor
	}
	return ns / a.unit.NS
}

// values converts a series of nanoseconds with value.
func (a *axis) values(ns []float64) plotter.Values {
	out := make(plotter.Values, len(ns))
	for i, v := range ns {
		out[i] = a.value(v)
	}
	return out
}

// apply sets up a plot axis for times, once every plotter has been added:
// its label (what, in the unit), its scale and ticks.
func (a *axis) apply(ax *plot.Axis, what string) {
	ax.Label.Text = fmt.Sprintf("%s (%s)", what, a.unit.Name)
	if !a.log {
		ax.Tick.Marker = linearTicks{}
		return
	}
	ax.Label.Text = what + " (log scale)"
	if a.clamped > 0 {
		ax.Label.Text += fmt.Sprintf("; %d values <= 0 drawn at %s", a.clamped, FormatNS(a.floor*a.unit.NS))
	}
	ax.Scale = plot.LogScale{}
	ax.Tick.Marker = logTicks{a.unit}
	ax.Min, ax.Max = logEnds(ax.Min, ax.Max)
}

// logEnds returns the ends of a log axis for data from lo to hi: a tenth of
// a decade of room at each end, out to the next power of ten when that is
// near, so that the ends are labelled.
func logEnds(lo, hi float64) (float64, float64) {
	const room, snap = 0.1, 0.35 // in decades
	l, h := math.Log10(lo)-room, math.Log10(hi)+room
	if l-math.Floor(l) < snap {
		l = math.Floor(l)
	}
	if math.Ceil(h)-h < snap {
		h = math.Ceil(h)
	}
	return math.Pow(10, l), math.Pow(10, h)
}

// linearTicks mark a linear axis at round steps (1, 2 or 5 times a power of
// ten) giving about five labels, each with as many decimals as the step needs,
// and minor ticks between. Unlike gonum's default ticks, they never print
// 1.02 as "1", and they label 1 on an axis of ratios around it.
type linearTicks struct{}

// Ticks implements plot.Ticker.
func (linearTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi-lo, 0) {
		return nil
	}
	raw := (hi - lo) / 5
	mag := math.Pow10(int(math.Floor(math.Log10(raw))))
	step, minors := 10*mag, 5
	for _, m := range []struct {
		mult   float64
		minors int
	}{{1, 5}, {2, 4}, {5, 5}} {
		if m.mult*mag >= raw {
			step, minors = m.mult*mag, m.minors
			break
		}
	}
	decimals := max(0, int(-math.Floor(math.Log10(step)+1e-9)))
	minor := step / float64(minors)
	var ticks []plot.Tick
	for i := math.Ceil(lo/minor - 1e-9); i*minor <= hi+1e-9*step; i++ {
		t := plot.Tick{Value: i * minor}
		if math.Mod(i, float64(minors)) == 0 {
			t.Label = strconv.FormatFloat(i/float64(minors)*step, 'f', decimals, 64)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// logTicks marks a log axis of values in unit: every power of ten labelled
// with the unit that suits it ("10 ns", "1 µs", "100 µs"), since a log axis
// spans several units; minor ticks at 2 to 9 times, and 2 and 5 labelled
// too when the axis spans fewer than three decades.
type logTicks struct{ unit Unit }

// Ticks implements plot.Ticker.
func (t logTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(lo > 0) || !(hi > lo) {
		return nil
	}
	few := math.Log10(hi/lo) < 3
	var ticks []plot.Tick
	for k := int(math.Floor(math.Log10(lo))); k <= int(math.Ceil(math.Log10(hi))); k++ {
		for m := 1; m <= 9; m++ {
			v := decimal(m, k)
			if v < lo || v > hi {
				continue
			}
			tk := plot.Tick{Value: v}
			if m == 1 || few && (m == 2 || m == 5) {
				tk.Label = tickLabel(v * t.unit.NS)
			}
			ticks = append(ticks, tk)
		}
	}
	return ticks
}

// tickLabel writes ns in the unit that suits it, with no more digits than
// needed: "100 ns", "1 µs", "2.5 ms".
func tickLabel(ns float64) string {
	u := UnitFor(ns)
	return strconv.FormatFloat(ns/u.NS, 'g', 6, 64) + " " + u.Name
}

// decimal returns m times ten to the k, as the float nearest the decimal
// (dividing for negative k, so that 3e-1 is 0.3 and not 0.30000000000000004).
func decimal(m, k int) float64 {
	if k < 0 {
		return float64(m) / math.Pow10(-k)
	}
	return float64(m) * math.Pow10(k)
}

// median is the median of s (the mean of the two middle values for an even
// count), as in the result's summaries; NaN for an empty s.
func median(s []float64) float64 {
	if len(s) == 0 {
		return math.NaN()
	}
	c := slices.Clone(s)
	slices.Sort(c)
	if len(c)%2 == 1 {
		return c[len(c)/2]
	}
	return (c[len(c)/2-1] + c[len(c)/2]) / 2
}
