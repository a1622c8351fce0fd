package bench

import (
	"github.com/benchbook/benchbook/internal/machine"
	"github.com/benchbook/benchbook/internal/sweep"
)

// MaxSweepPoints is sweep.MaxSweepPoints.
const MaxSweepPoints = sweep.MaxSweepPoints

// ParseSweep is sweep.ParseSweep.
func ParseSweep(s string) ([]Axis, error) { return sweep.ParseSweep(s) }

// Points is sweep.Points.
func Points(axes []Axis) [][]int64 { return sweep.Points(axes) }

// BytesExpr is sweep.BytesExpr.
type BytesExpr = sweep.BytesExpr

// ParseBytesExpr is sweep.ParseBytesExpr.
func ParseBytesExpr(s string) (*BytesExpr, error) { return sweep.ParseBytesExpr(s) }

// SectionBytes is sweep.SectionBytes.
func SectionBytes(path string) (int64, error) { return sweep.SectionBytes(path) }

// FitSlack is sweep.FitSlack.
const FitSlack = sweep.FitSlack

// Fit is sweep.Fit.
type Fit = sweep.Fit

// FitSections is sweep.FitSections.
func FitSections(pts [][]int64, sections []int64) (Fit, error) {
	return sweep.FitSections(pts, sections)
}

// WorkingSet is sweep.WorkingSet.
func WorkingSet(pts [][]int64, params []string, sections []int64, expr *BytesExpr) ([]*int64, string, error) {
	return sweep.WorkingSet(pts, params, sections, expr)
}

// RuleFit is sweep.RuleFit.
const RuleFit = sweep.RuleFit

// SweepCaches is sweep.SweepCaches.
func SweepCaches(d machine.Description, cpu int) []CacheMark { return sweep.SweepCaches(d, cpu) }

// IsSweepPrediction is sweep.IsSweepPrediction.
func IsSweepPrediction(s string) bool { return sweep.IsSweepPrediction(s) }

// ParseSweepPrediction is sweep.ParseSweepPrediction.
func ParseSweepPrediction(s string, axes []Axis) (*SweepPrediction, error) {
	return sweep.ParseSweepPrediction(s, axes)
}
