// Package replay is a kernel driver that measures nothing: it speaks the
// driver's command line and writes the records of internal/harness's
// records.md, with the time of every pass taken from a scenario (a
// distribution or a recorded list per variant, noise from a seeded
// generator) instead of a clock. The host's plumbing (rounds and blocks,
// before/after pairs, sequential stopping, fresh and cold series, sweep
// order, a process that fails) is then tested fast and deterministically in
// plain go test, on a busy machine too. docs/testing.md says what it covers.
//
// The driver is the test binary itself: a test package calls Main from an
// init function (it returns at once unless the binary was started as a
// replay kernel) and NewKernel to make a *harness.Kernel whose Binary is a
// link to the test binary beside a scenario file.
package replay

import (
	"encoding/json"
	"fmt"
	"os"
)

// Scenario is what one replay kernel's processes write.
type Scenario struct {
	// Lang is the start record's lang ("c" unless given).
	Lang string `json:"lang,omitempty"`
	// Seed seeds the noise; with the record file's name, the round and the
	// slot it makes every sample's time (Noise).
	Seed uint64 `json:"seed"`
	// Setup: the kernel has a setup function (a phase name=setup record,
	// and phase name=gc when Lang is "go").
	Setup    bool      `json:"setup,omitempty"`
	Variants []Variant `json:"variants"`
	// ReadCostNS is the clock record's read cost (default 20 ns), what a
	// dead variant's sample takes and what the batch calibration's goal is
	// made of.
	ReadCostNS float64 `json:"read_cost_ns,omitempty"`
	// Fail makes the processes whose record file name holds Fail.Process
	// fail.
	Fail *Fail `json:"fail,omitempty"`
	// Log, when set, is a file every process appends one line to when it
	// starts: its record file's name and its arguments (LogLine).
	Log string `json:"log,omitempty"`
}

// Variant is one variant's times.
type Variant struct {
	Name string `json:"name"`
	Line int    `json:"line,omitempty"`
	// NS is one pass's time: the median of its distribution.
	NS float64 `json:"ns,omitempty"`
	// Recorded, if given, are times of one pass measured before: each
	// sample draws one of them (uniformly, from the seeded generator)
	// instead of NS, and Noise applies on top.
	Recorded []float64 `json:"recorded,omitempty"`
	// Noise is the sigma of a multiplicative log-normal noise: a pass
	// takes NS*exp(Noise*z), z standard normal (0: exactly NS).
	Noise float64 `json:"noise,omitempty"`
	// ColdNS is the cold pass (default 3 NS), with the same noise.
	ColdNS float64 `json:"cold_ns,omitempty"`
	// Dead: the compiler emptied the timed region, so a sample times the
	// clock reads alone, ReadCostNS whatever its batch; the kernel's
	// harness.Variant says Dead too.
	Dead bool `json:"dead,omitempty"`
	// Checksum: the variant calls the checksum function with want Want
	// (default 1) each pass; its checksum record sums got over the
	// measured passes, times WrongBy (default 1: a right checksum).
	Checksum bool    `json:"checksum,omitempty"`
	Want     float64 `json:"want,omitempty"`
	WrongBy  float64 `json:"wrong_by,omitempty"`
}

// Fail is how a process fails.
type Fail struct {
	// Process is a substring of the record file's name (e.g.
	// "fresh-l0-a-03"): the processes it matches fail.
	Process string `json:"process"`
	// AfterSamples: the process fails once it wrote this many sample
	// records (0: right after start and layout).
	AfterSamples int `json:"after_samples"`
	// Status is the exit status (0: exit 0 without the done record, a
	// process that ended early).
	Status int `json:"status"`
	// Error, if set, is written as an error record before it exits.
	Error string `json:"error,omitempty"`
}

// ScenarioSuffix is appended to a replay kernel's Binary to name its
// scenario file.
const ScenarioSuffix = ".scenario.json"

// ReadScenario reads a scenario file and checks it.
func ReadScenario(path string) (*Scenario, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var sc Scenario
	if err := json.Unmarshal(b, &sc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &sc, sc.check()
}

func (sc *Scenario) check() error {
	if len(sc.Variants) == 0 {
		return fmt.Errorf("replay scenario: no variants")
	}
	seen := map[string]bool{}
	for _, v := range sc.Variants {
		switch {
		case v.Name == "" || seen[v.Name]:
			return fmt.Errorf("replay scenario: variant name %q empty or repeated", v.Name)
		case !v.Dead && v.NS <= 0 && len(v.Recorded) == 0:
			return fmt.Errorf("replay scenario: variant %s has neither ns nor recorded times", v.Name)
		case v.Noise < 0:
			return fmt.Errorf("replay scenario: variant %s: noise %v < 0", v.Name, v.Noise)
		}
		for _, r := range v.Recorded {
			if r <= 0 {
				return fmt.Errorf("replay scenario: variant %s: recorded time %v <= 0", v.Name, r)
			}
		}
		seen[v.Name] = true
	}
	return nil
}

func (sc *Scenario) readCost() float64 {
	if sc.ReadCostNS > 0 {
		return sc.ReadCostNS
	}
	return 20
}

func (sc *Scenario) variant(name string) *Variant {
	for i := range sc.Variants {
		if sc.Variants[i].Name == name {
			return &sc.Variants[i]
		}
	}
	return nil
}
