package protocol

import (
	"github.com/benchbook/benchbook/internal/machine"
	"github.com/benchbook/benchbook/internal/sweep"
)

// The names of internal/sweep (the sweep's planning): protocol.X is sweep.X.
type (
	BytesExpr = sweep.BytesExpr
	Fit       = sweep.Fit
)

const (
	MaxSweepPoints = sweep.MaxSweepPoints
	FitSlack       = sweep.FitSlack
	RuleFit        = sweep.RuleFit
)

// ParseSweep is sweep.ParseSweep.
func ParseSweep(s string) ([]Axis, error) { return sweep.ParseSweep(s) }

// Points is sweep.Points.
func Points(axes []Axis) [][]int64 { return sweep.Points(axes) }

// ParseBytesExpr is sweep.ParseBytesExpr.
func ParseBytesExpr(s string) (*BytesExpr, error) { return sweep.ParseBytesExpr(s) }

// SectionBytes is sweep.SectionBytes.
func SectionBytes(path string) (int64, error) { return sweep.SectionBytes(path) }

// FitSections is sweep.FitSections.
func FitSections(pts [][]int64, sections []int64) (Fit, error) {
	return sweep.FitSections(pts, sections)
}

// WorkingSet is sweep.WorkingSet.
func WorkingSet(pts [][]int64, params []string, sections []int64, expr *BytesExpr) ([]*int64, string, error) {
	return sweep.WorkingSet(pts, params, sections, expr)
}

// SweepCaches is sweep.SweepCaches.
func SweepCaches(d machine.Description, cpu int) []CacheMark { return sweep.SweepCaches(d, cpu) }

// IsSweepPrediction is sweep.IsSweepPrediction.
func IsSweepPrediction(s string) bool { return sweep.IsSweepPrediction(s) }

// ParseSweepPrediction is sweep.ParseSweepPrediction.
func ParseSweepPrediction(s string, axes []Axis) (*SweepPrediction, error) {
	return sweep.ParseSweepPrediction(s, axes)
}
