package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// OneWayResult is a one-way analysis of variance: how much of the spread of
// samples lies between groups rather than within them.
type OneWayResult struct {
	// Between is the share of the total sum of squares between the group
	// means (eta squared), in [0, 1].
	Between float64
	// F is the ratio of the mean squares between and within groups, with
	// DFBetween and DFWithin degrees of freedom; P is its upper tail.
	F                   float64
	DFBetween, DFWithin int
	P                   float64
}

// OneWay analyses groups of samples (one group per level of a factor, such
// as the code layout a process ran): with m the grand mean and m_g a
// group's mean, SSB = sum_g n_g (m_g - m)^2, SSW = sum_g sum_i (x_gi - m_g)^2,
// Between = SSB / (SSB + SSW), F = (SSB/(G-1)) / (SSW/(N-G)) and P = the
// upper tail of Fisher's F distribution with G-1 and N-G degrees of freedom
// (gonum's distuv.F). Empty groups are left out. Errors: fewer than two
// groups with samples, or no more samples than groups (ErrTooFew). When
// every sample equals its group's mean, P is 0 if the means differ and 1 if
// they do not.
func OneWay(groups [][]float64) (OneWayResult, error) {
	var ne [][]float64
	n := 0
	var sum float64
	for _, g := range groups {
		if len(g) > 0 {
			ne = append(ne, g)
			n += len(g)
			for _, x := range g {
				sum += x
			}
		}
	}
	if len(ne) < 2 || n <= len(ne) {
		return OneWayResult{}, fmt.Errorf("stats: one-way analysis of %d groups of %d samples in all: %w", len(ne), n, ErrTooFew)
	}
	m := sum / float64(n)
	var ssb, ssw float64
	for _, g := range ne {
		var gs float64
		for _, x := range g {
			gs += x
		}
		gm := gs / float64(len(g))
		ssb += float64(len(g)) * (gm - m) * (gm - m)
		for _, x := range g {
			ssw += (x - gm) * (x - gm)
		}
	}
	r := OneWayResult{DFBetween: len(ne) - 1, DFWithin: n - len(ne)}
	if ssb+ssw > 0 {
		r.Between = ssb / (ssb + ssw)
	}
	switch {
	case ssw == 0 && ssb == 0:
		r.P = 1
	case ssw == 0:
		r.F, r.P = math.Inf(1), 0
	default:
		r.F = (ssb / float64(r.DFBetween)) / (ssw / float64(r.DFWithin))
		r.P = distuv.F{D1: float64(r.DFBetween), D2: float64(r.DFWithin)}.Survival(r.F)
	}
	return r, nil
}
