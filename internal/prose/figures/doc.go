// Package figures recomputes, from a result's raw samples and counts, the
// figures the oracles of package prose hold sentences to: medians, spreads,
// ratios, pair shares, lag-one correlations, rank correlations, a one-way
// analysis of layouts, page faults and the clock's spread. It uses gonum
// and never stdlib/stats or the renderers of internal/numtext, so that a figure
// wrong in the renderer is not wrong here too; the levels a claim is judged
// by (how noisy is noisy) stay with the oracles, in prose.
package figures
