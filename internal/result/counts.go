package result

// Counts is what valgrind's callgrind counted for one variant: the
// instructions its timed function executes per pass. An instruction count
// is the same on every run of the same binary and input, whatever else the
// machine is doing: the one figure here that noise does not move.
type Counts struct {
	Tool                string   `json:"tool"`
	InstructionsPerPass int64    `json:"instructions_per_pass"`
	PerElement          *float64 `json:"per_element"`
	// Simulated by callgrind (--cache-sim=yes, counts_cache.go): data misses
	// per pass of the first-level data cache and of the last level, and the
	// geometry simulated (callgrind's desc lines).
	D1MissesPerPass *float64 `json:"d1_misses_per_pass,omitempty"`
	LLMissesPerPass *float64 `json:"ll_misses_per_pass,omitempty"`
	Cache           []string `json:"cache,omitempty"`
	// Runs are the two callgrind runs every figure above is computed from
	// (CountsOf): their numbers of measured passes and the event totals
	// callgrind collected inside the timed function. verify recomputes
	// the figures from them.
	Runs []CountRun `json:"runs"`
}

// CountRun is one callgrind run of a variant: how many measured passes it
// made and callgrind's event totals inside the timed function (Ir, and
// with the cache simulation Dr, Dw, I1mr, D1mr, D1mw, ILmr, DLmr, DLmw).
type CountRun struct {
	Passes int              `json:"passes"`
	Events map[string]int64 `json:"events"`
}
