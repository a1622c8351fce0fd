package stats

import (
	"math"
	"math/rand/v2"
	"slices"
)

// The rank verdicts need a few order statistics of M = O(n^2) values that
// are never stored: the Walsh averages (d_i+d_j)/2, i <= j, of
// ComparePaired and the differences x_i - y_j of CompareUnpaired (the
// Hodges-Lehmann median and the k-th and (M+1-k)-th values of the
// interval), and the pairwise relative differences of findings.PairDifference.
// With the values sorted, each set is a matrix whose rows ascend left to
// right and whose columns ascend down, and the k-th smallest is found by
// selection in it (Monahan 1984, "Algorithm 616: fast computation of the
// Hodges-Lehmann location estimator", ACM TOMS 10(3); the randomized form
// of Johnson and Mizoguchi 1978):
//
//  1. Each row i keeps the columns [lo_i, hi_i) that can still hold the
//     k-th value; at first all of them. below counts the values known to
//     be smaller than every candidate.
//  2. A pivot is drawn uniformly among the candidates. For each row, the
//     number of its values < pivot and <= pivot is found by one sweep of
//     a pointer that moves only left as the rows go down (the matrix is
//     sorted both ways), O(rows + columns) in all.
//  3. If more than k-below candidates are < pivot, the k-th value is
//     among them: hi_i moves to the first value >= pivot. If k-below is
//     below the count <= pivot, the pivot is the k-th value. Otherwise
//     below grows by the candidates <= pivot and lo_i moves past them.
//  4. Each step drops the pivot and, in expectation, a quarter of the
//     candidates; once they are no more than the rows and columns, they
//     are copied out and the k-th is found by sorting them.
//
// That is O(n log n) expected time and O(n) memory, against O(n^2 log n)
// and O(n^2) for sorting the materialised set. The values are computed by
// the same float64 expressions as the materialised set (the value of a
// cell is one function of its row and column), and rounding is monotone,
// so the rows and columns stay sorted in floating point and the value
// returned is the one a sort of all of them puts at k, bit for bit. The
// random pivots change only the time taken, never the value.

// sortedMatrix is an implicit matrix whose set is the cells [first(i),
// last(i)) of each row i (the Walsh averages use the upper triangle): in
// the set every row is non-decreasing from left to right, and every column
// non-decreasing from top to bottom where both cells are in the set. The
// value of a cell is evaluated only in the set.
type sortedMatrix struct {
	rows, cols  int
	at          func(i, j int) float64
	first, last func(i int) int
}

// count is the number of cells of the set.
func (m *sortedMatrix) count() int64 {
	var n int64
	for i := range m.rows {
		n += int64(max(0, m.last(i)-m.first(i)))
	}
	return n
}

// boundary fills b[i] with the first column of row i's set whose value is
// >= t (strict) or > t (not strict), last(i) when there is none. As the
// rows go down the boundary moves only left, except where a row's set
// starts further right (the pointer is then moved to its start), so one
// sweep of a pointer finds them all: O(rows + cols).
func (m *sortedMatrix) boundary(t float64, strict bool, b []int) {
	j := m.cols
	for i := range m.rows {
		f, l := m.first(i), m.last(i)
		j = min(max(j, f), l)
		for j > f {
			v := m.at(i, j-1)
			if (strict && v < t) || (!strict && v <= t) {
				break
			}
			j--
		}
		b[i] = j
	}
}

// kth returns the k-th smallest value of the set (0-based), k in [0,
// count()).
func (m *sortedMatrix) kth(k int64) float64 {
	lo, hi := make([]int, m.rows), make([]int, m.rows)
	for i := range m.rows {
		lo[i], hi[i] = m.first(i), max(m.first(i), m.last(i))
	}
	lt, le := make([]int, m.rows), make([]int, m.rows)
	rng := rand.New(rand.NewPCG(0x5eed, uint64(k)))
	below := int64(0)
	small := int64(m.rows + m.cols + 16)
	for {
		var left int64
		for i := range m.rows {
			left += int64(hi[i] - lo[i])
		}
		if left <= small {
			vals := make([]float64, 0, left)
			for i := range m.rows {
				for j := lo[i]; j < hi[i]; j++ {
					vals = append(vals, m.at(i, j))
				}
			}
			slices.Sort(vals)
			return vals[k-below]
		}
		r := rng.Int64N(left)
		var pivot float64
		for i := range m.rows {
			if n := int64(hi[i] - lo[i]); r < n {
				pivot = m.at(i, lo[i]+int(r))
				break
			} else {
				r -= n
			}
		}
		m.boundary(pivot, true, lt)
		m.boundary(pivot, false, le)
		var nlt, nle int64
		for i := range m.rows {
			lt[i], le[i] = min(max(lt[i], lo[i]), hi[i]), min(max(le[i], lo[i]), hi[i])
			nlt += int64(lt[i] - lo[i])
			nle += int64(le[i] - lo[i])
		}
		switch want := k - below; {
		case want < nlt:
			copy(hi, lt)
		case want < nle:
			return pivot
		default:
			below += nle
			copy(lo, le)
		}
	}
}

// orderStats are the order statistics of a set of M values that is not
// stored: its size, its k-th smallest value and its median.
type orderStats interface {
	Len() int
	Kth(k int) float64 // 0-based
}

// matrixStats is a sortedMatrix as orderStats.
type matrixStats struct{ m *sortedMatrix }

func (s matrixStats) Len() int          { return int(s.m.count()) }
func (s matrixStats) Kth(k int) float64 { return s.m.kth(int64(k)) }

// medianOf is the median of s as medianSorted gives it for the sorted
// set: the middle value, or the mean of the two middle ones.
func medianOf(s orderStats) float64 {
	n := s.Len()
	if n%2 == 1 {
		return s.Kth(n / 2)
	}
	return (s.Kth(n/2-1) + s.Kth(n/2)) / 2
}

// walshAverages are the n(n+1)/2 Walsh averages (d_i+d_j)/2, i <= j, of d,
// as order statistics. d is not modified.
func walshAverages(d []float64) orderStats {
	s := sortedCopy(d)
	n := len(s)
	return matrixStats{&sortedMatrix{rows: n, cols: n,
		at:    func(i, j int) float64 { return (s[i] + s[j]) / 2 },
		first: func(i int) int { return i },
		last:  func(int) int { return n }}}
}

// differences are the len(x)*len(y) differences x_i - y_j, as order
// statistics. x and y are not modified.
func differences(x, y []float64) orderStats {
	xs, ys := sortedCopy(x), sortedCopy(y)
	slices.Reverse(ys) // x_i - y_j then ascends along a row
	return matrixStats{&sortedMatrix{rows: len(xs), cols: len(ys),
		at:    func(i, j int) float64 { return xs[i] - ys[j] },
		first: func(int) int { return 0 },
		last:  func(int) int { return len(ys) }}}
}

// PairDifferenceQuantile returns the q quantile (q in [0, 1]) of the
// relative differences (larger - smaller) / smaller of all pairs of single
// samples of x whose smaller sample is positive: the value at 1-based rank
// ceil(q*M) (at least 1) of the M such differences sorted, computed in
// float64 as (s[j]-s[i])/s[i] of the sorted samples. 0 when there is no
// such pair. It takes O(n log n) expected time and O(n) memory (the
// selection above) and does not modify x. Samples must not be NaN or
// infinite.
func PairDifferenceQuantile(x []float64, q float64) float64 {
	s := sortedCopy(x)
	n := len(s)
	p0 := 0 // the first positive sample
	for p0 < n && !(s[p0] > 0) {
		p0++
	}
	rows := n - p0
	if rows < 2 {
		return 0
	}
	// Row r is the smaller sample s[i], i = n-1-r, and its set the larger
	// ones, j > i: for each such j the value grows as s[i] shrinks (the
	// numerator s[j]-s[i] >= 0 grows, the denominator shrinks), so the
	// columns ascend downwards.
	m := &sortedMatrix{rows: rows, cols: n,
		at:    func(r, j int) float64 { i := n - 1 - r; return (s[j] - s[i]) / s[i] },
		first: func(r int) int { return n - r },
		last:  func(int) int { return n }}
	total := m.count()
	idx := int64(math.Ceil(q*float64(total))) - 1
	return m.kth(min(max(idx, 0), total-1))
}
