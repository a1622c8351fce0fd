package result

import (
	"github.com/benchbook/benchbook/internal/machine"
	"github.com/benchbook/benchbook/stdlib/stats"
)

// SchemaID is the value of Result.Schema.
const SchemaID = "benchbook.result/1"

// ResultFile is the name of the result JSON in a run's raw folder
// (Result.RawFile).
const ResultFile = "result.json"

// Result is one run of the measurement protocol on one kernel: everything that
// can change its numbers, and every sample behind every figure. Its JSON form is
// the MIME entry application/vnd.benchbook.result+json.
type Result struct {
	Schema      string       `json:"schema"`
	Kernel      Kernel       `json:"kernel"`
	Protocol    Protocol     `json:"protocol"`
	Conditions  Conditions   `json:"conditions"`
	Variants    []Variant    `json:"variants"`
	Comparisons []Comparison `json:"comparisons"`
	AA          AA           `json:"aa"`
	Findings    []Finding    `json:"findings"`
	Prediction  *Prediction  `json:"prediction,omitempty"`
	// Baseline is the previous build of this kernel (or another kernel of
	// the session) measured again in this run, beside the new one.
	Baseline *Baseline `json:"baseline,omitempty"`
	// BaselineDropped says why a baseline asked for was left out of the run.
	BaselineDropped string `json:"baseline_dropped,omitempty"`
	// BaselineNote is what the session said of the baseline it chose (what
	// changed since the kernel was last measured) or why there is none.
	BaselineNote string `json:"baseline_note,omitempty"`
	// Control, when set, says the baseline is the default side of a
	// control (pages=, pad=; controls.go), not a previous build.
	Control *Control `json:"control,omitempty"`
	// Partial is set when the run was interrupted or a process failed:
	// the samples are what had been measured by then.
	Partial bool   `json:"partial,omitempty"`
	Error   string `json:"error,omitempty"`
	// Phases are the protocol's named steps in the order they ran.
	Phases []Phase `json:"phases,omitempty"`
	// RawFile is where the raw samples were written before anything was shown.
	RawFile string `json:"raw_file,omitempty"`
	// ResultNotWritten says why ResultFile could not be written in RawFile
	// (a full disk); empty when it was.
	ResultNotWritten string `json:"result_not_written,omitempty"`
	// Sweep, in a result of sweep=, is its point (sweep.go).
	Sweep *SweepPoint `json:"sweep,omitempty"`
	// RoundBlock is, per interleaved round, the block that took it: the
	// process (the pair of processes with a baseline) whose rounds it was
	// one of. Comparisons of the interleaved series are made across
	// blocks (blocks.go); empty in results of the design before blocks,
	// whose Part 1 was one process.
	RoundBlock []int `json:"round_block,omitempty"`
	// TextVersion is the wording its findings, tables and commentary were
	// written in (the TextVersion of the benchbook that ran it); 0 before
	// results said.
	TextVersion int `json:"text_version,omitempty"`
}

// Kernel identifies the built benchmark kernel.
type Kernel struct {
	Name         string   `json:"name"`
	Lang         string   `json:"lang"` // "c" or "go"
	Compiler     string   `json:"compiler"`
	Flags        []string `json:"flags"`
	SourceSHA256 string   `json:"source_sha256"`
	BinarySHA256 string   `json:"binary_sha256"`
}

// Protocol is the run's settings, as given and as defaulted.
type Protocol struct {
	Reps     int      `json:"reps"`
	Runs     int      `json:"runs"`
	SettleMS float64  `json:"settle_ms"`
	Warmup   int      `json:"warmup"`
	Pin      *int     `json:"pin"`
	Load     int      `json:"load"`
	Elements *int64   `json:"elements"`
	Variants []string `json:"variants,omitempty"` // measured, in round-robin order
	Fresh    []string `json:"fresh,omitempty"`    // variants with a fresh-process series
	Quick    bool     `json:"quick,omitempty"`
	Timeout  string   `json:"timeout,omitempty"`
	// StatsMethod names how comparisons, the A/A control and the baseline
	// were computed (see Method); empty in results of earlier versions,
	// whose intervals came from the bootstrap settings below.
	StatsMethod string  `json:"stats_method,omitempty"`
	Alpha       float64 `json:"alpha"`
	// OrderSeed seeds the random order of the slots in each interleaved
	// round (harness.RoundOrder); decimal digits, below 2^53, so that a
	// notebook saved by a JavaScript client keeps it exact.
	OrderSeed string `json:"order_seed,omitempty"`
	// Pairs is how many pairs of processes shared the interleaved rounds
	// of a run with a baseline; 0 without one (one process).
	Pairs int `json:"pairs,omitempty"`
	// ColdAfter is when the cold pass was timed: "start" (before setup)
	// or "setup" (after setup, with the caches evicted).
	ColdAfter string `json:"cold_after,omitempty"`
	// ASLR is "off" when the fresh processes ran without address
	// randomisation.
	ASLR string `json:"aslr,omitempty"`
	// Layouts is how many builds with different code alignment the fresh
	// processes were spread over (1: the kernel's own build only).
	Layouts int `json:"layouts,omitempty"`
	// BenchCPUs are the CPUs the benchmark processes were pinned to.
	BenchCPUs []int `json:"bench_cpus,omitempty"`
	// Bootstrap settings of results made before StatsMethod existed.
	BootstrapResamples int    `json:"bootstrap_resamples,omitempty"`
	BootstrapSeed      uint64 `json:"bootstrap_seed,omitempty"`
	// Batch is batch=: "auto" (the calibration chooses) or a fixed number
	// of passes per sample; empty in results made before it existed.
	Batch string `json:"batch,omitempty"`
	// ReadsPerPass is how many clock reads a pass must last to be timed alone.
	ReadsPerPass int `json:"reads_per_pass,omitempty"`
	// LoadCPUs are the CPUs the load threads were pinned to (nil: unpinned).
	LoadCPUs []int `json:"load_cpus,omitempty"`
	// LoadKind is what the load threads did (load=alu:N or memory:N):
	// "alu" or "memory"; LoadBytes a memory thread's buffer. Empty in
	// results before load kinds (their threads were alu).
	LoadKind  string `json:"load_kind,omitempty"`
	LoadBytes int64  `json:"load_bytes,omitempty"`
	LoadNote  string `json:"load_note,omitempty"`
	// SettleMinMS is the floor of the adaptive settle (settle_ms its
	// bound); equal to settle_ms, the settle was fixed. Absent in results
	// made before the settle was adaptive.
	SettleMinMS *float64 `json:"settle_min_ms,omitempty"`
	// With a baseline (blocks.go): the time the before/after could take,
	// the width below which an interval holding 1 is "no difference", the
	// interleaved rounds each block's pair took, the measured rounds of
	// each of their steps (absent: one, as before text version 7) and the
	// discarded rounds at the start of each step.
	BudgetMS float64 `json:"budget_ms,omitempty"`
	// Sequential is set when the number of blocks was not fixed before the
	// run (a before/after stops when its verdicts are known): every test
	// of its blocks is then the sequential sign test; otherwise the exact
	// sign test of a fixed number of blocks.
	Sequential  bool    `json:"sequential,omitempty"`
	Resolve     float64 `json:"resolve,omitempty"`
	BlockRounds int     `json:"block_rounds,omitempty"`
	StepRounds  int     `json:"step_rounds,omitempty"`
	StepWarmup  int     `json:"step_warmup,omitempty"`
	// HarnessSyscalls is what the run's processes said of their own system
	// calls around the measured passes (their syscalls records); absent
	// before harness version 10.
	HarnessSyscalls *HarnessSyscalls `json:"harness_syscalls,omitempty"`
}

// HarnessSyscalls: the most system calls any process of the run made
// itself between a discarded pass and the measured pass after it, and
// between two measured passes (records.md, syscalls), over Processes
// processes. With page-table isolation and no PCID each one flushes the
// TLB.
type HarnessSyscalls struct {
	AfterDiscarded int `json:"after_discarded"`
	Between        int `json:"between"`
	Processes      int `json:"processes"`
}

// Clock is what the harness measured of its own clock (records.md,
// `clock`). Since harness version 6, ResolutionNS is the clock's
// granularity, the grid its spaced deltas sit on (machine.ClockGrid of
// Spaced), and ReadCostNS the median cost of one read; before, they were
// the smallest delta and the mean (which are now MinStepNS and
// ReadCostMeanNS): on this project's VMs the smallest delta (20-31 ns) is
// the read cost, not the step (a 10 ns grid), and the mean counts
// descheduled time (26-217 ns).
type Clock struct {
	ResolutionNS float64 `json:"resolution_ns"` // granularity (the grid); before version 6 the smallest delta
	ReadCostNS   float64 `json:"read_cost_ns"`  // median cost of one read; before version 6 the mean
	// MinStepNS is the smallest non-zero delta of back-to-back reads,
	// ReadCostMeanNS the mean over them, Spaced the runs of values the
	// spaced deltas took (machine.Ranges' form); 0 and "" before version 6.
	MinStepNS      float64 `json:"min_step_ns,omitempty"`
	ReadCostMeanNS float64 `json:"read_cost_mean_ns,omitempty"`
	Spaced         string  `json:"spaced,omitempty"`
	Source         string  `json:"source,omitempty"`
	// Gaps: the harness read the clock back to back for GapWindowNS and saw
	// GapCount gaps longer than GapThresholdNS between two reads, GapTotalNS
	// in all, the longest GapMaxNS: time the thread did not run, which lands
	// inside passes.
	GapWindowNS    float64 `json:"gap_window_ns,omitempty"`
	GapThresholdNS float64 `json:"gap_threshold_ns,omitempty"`
	GapCount       int64   `json:"gap_count"`
	GapTotalNS     float64 `json:"gap_total_ns,omitempty"`
	GapMaxNS       float64 `json:"gap_max_ns,omitempty"`
}

// Conditions are the machine and its state around the run.
type Conditions struct {
	Machine machine.Description `json:"machine"`
	Clock   Clock               `json:"clock"`
	Before  machine.Moment      `json:"before"`
	After   machine.Moment      `json:"after"`
	During  *machine.During     `json:"during,omitempty"`
	// Fingerprint is what the machine measured of itself before the run
	// (machine.MeasureFingerprint), and the boot conditions; nil in results
	// made before it existed.
	Fingerprint *machine.Fingerprint `json:"fingerprint,omitempty"`
}

// Samples is one series: raw samples in nanoseconds per pass, in the order
// they were taken, and the summary computed from them alone.
type Samples struct {
	SamplesNS []float64     `json:"samples_ns"`
	Summary   stats.Summary `json:"summary"`
	// SHA256 is SamplesDigest of the samples: their order, which no summary
	// sees, bound so that a reordering is caught.
	SHA256 string `json:"samples_sha256,omitempty"`
	// Positions, in an interleaved series, is where in its round each
	// sample ran (0 first), as the random order of the round put it.
	Positions []int `json:"positions,omitempty"`
	// Layout, in a fresh or cold series, is each process's layout: its
	// build (layouts=K), stack and heap padding and the addresses seen.
	Layout *Layout `json:"layout,omitempty"`
	// The clock during the run (freq.go): each process's own estimates,
	// the clock of each sample, and the median cycles per element.
	FreqProcesses    []FreqProcess `json:"freq_processes,omitempty"`
	FreqMHz          []float64     `json:"freq_mhz,omitempty"`
	CyclesPerElement *float64      `json:"cycles_per_element,omitempty"`
}

// Layout is the placement in memory of each fresh process, one entry per
// sample: the build it ran (0 is the kernel's own, 1.. the alignment
// variants of layouts=K), the random bytes its stack and heap were
// shifted by, and whether address randomisation was on.
type Layout struct {
	IDs      []int  `json:"layout_ids"`
	StackPad []int  `json:"stack_pad"`
	HeapPad  []int  `json:"heap_pad"`
	ASLR     []bool `json:"aslr"`
}

// Cold is the cold series: the first pass of each fresh process, with its
// minor page faults, beside the one cold pass of the in-process series.
type Cold struct {
	Samples
	MinFlt            []int64  `json:"minflt"`
	InProcessColdNS   *float64 `json:"in_process_cold_ns"`
	InProcessMinFlt   *int64   `json:"in_process_minflt,omitempty"`
	WarmMinFltPerPass *float64 `json:"warm_minflt_per_pass,omitempty"`
	// After is when the cold passes were timed: "start" (before setup:
	// memory the program has not written yet) or "setup" (after setup,
	// with the caches evicted: the first use of real data).
	After string `json:"after,omitempty"`
	// SetupNS and SetupMinFlt are each process's setup phase: what its
	// first writes cost, in time and minor page faults.
	SetupNS     []float64 `json:"setup_ns,omitempty"`
	SetupMinFlt []int64   `json:"setup_minflt,omitempty"`
}

// Series holds a variant's series. Interleaved is Part 1 (round robin in one
// process); InProcess and Fresh are Part 2; Cold is Part 3.
type Series struct {
	Interleaved *Samples `json:"interleaved"`
	InProcess   *Samples `json:"in_process,omitempty"`
	Fresh       *Samples `json:"fresh,omitempty"`
	Cold        *Cold    `json:"cold,omitempty"`
}

// Checksum is the consumed result of a variant checked against its expected value.
type Checksum struct {
	Got    float64 `json:"got"`
	Want   float64 `json:"want"`
	Passes int     `json:"passes"`
	OK     bool    `json:"ok"`
}

// Variant is one BENCH variant of the kernel.
type Variant struct {
	Name    string `json:"name"`
	Asm     string `json:"asm"`
	Dead    bool   `json:"dead"`
	Hollow  bool   `json:"hollow,omitempty"`  // only a counting loop is left
	Finding string `json:"finding,omitempty"` // what the timed region holds
	// RegionInstructions is how many instructions lie between the two clock
	// reads of the timed function.
	RegionInstructions int `json:"region_instructions,omitempty"`
	Batch              int `json:"batch"`
	// BatchAuto, with batch=K, is what the calibration would have chosen.
	BatchAuto int `json:"batch_auto,omitempty"`
	// The batch function (k passes between two clock reads), analysed
	// like the single pass: it is what a batched variant's samples time.
	BatchAsm     string    `json:"batch_asm,omitempty"`
	BatchDead    bool      `json:"batch_dead,omitempty"`
	BatchHollow  bool      `json:"batch_hollow,omitempty"`
	BatchFinding string    `json:"batch_finding,omitempty"`
	Checksum     *Checksum `json:"checksum"`
	Series       Series    `json:"series"`
	// Counts, with counts, is what valgrind counted of the timed function.
	Counts *Counts `json:"counts,omitempty"`
	// Latency, for a BENCH_OPS variant, is its operations one by one (latency.go).
	Latency *Latency `json:"latency,omitempty"`
}

// Comparison is a over b in one series: the ratio of medians, the
// distribution-free interval of the typical ratio and the rank test that
// agrees with it (stats.ComparePaired for rounds, stats.CompareUnpaired for
// processes), with the test's p-value adjusted over the comparisons of the
// result (Holm). Significant is PAdjusted < alpha.
type Comparison struct {
	A           string  `json:"a"`
	B           string  `json:"b"`
	Series      string  `json:"series"`
	Ratio       float64 `json:"ratio"`
	CILow       float64 `json:"ci_low"`
	CIHigh      float64 `json:"ci_high"`
	PValue      float64 `json:"p_value"`
	Significant bool    `json:"significant"`
	Paired      bool    `json:"paired"`
	Stat
}

// Stat is what a rank comparison adds to the ratio of medians: the
// Hodges-Lehmann ratio, the Holm-adjusted p-value, the autocorrelation the
// test accounted for and the effective number of independent samples.
type Stat struct {
	Shift     float64 `json:"shift,omitempty"`
	PAdjusted float64 `json:"p_adjusted,omitempty"`
	Rho       float64 `json:"rho"`
	NEff      float64 `json:"n_eff,omitempty"`
	Method    string  `json:"method,omitempty"`
	// Undefined says why no verdict could be computed (a zero median, too
	// few samples); empty when the numbers hold.
	Undefined string `json:"undefined,omitempty"`
}

// AA is the A/A control: one live variant run twice in the round robin. The
// ratio of the two copies is the floor of what this run can resolve.
type AA struct {
	Variant   string    `json:"variant"`
	Ratio     float64   `json:"ratio"`
	CILow     float64   `json:"ci_low"`
	CIHigh    float64   `json:"ci_high"`
	PValue    float64   `json:"p_value"`
	SamplesNS []float64 `json:"samples_ns"` // the second copy's samples
	// Positions are where the copy ran in each round.
	Positions []int `json:"positions,omitempty"`
	Stat
}

// Baseline is before/after measured in one run: the previous build of the
// kernel (or another kernel, baseline=OTHER) measured again beside the new
// one, its interleaved rounds in lock step with the new build's and its
// fresh processes alternating with the new build's. Ratios are new over
// previous.
type Baseline struct {
	Kernel  Kernel `json:"kernel"`
	SameRun bool   `json:"same_run"`
	// Other is set when the baseline is another kernel (baseline=OTHER),
	// empty when it is the previous build of this one.
	Other    string            `json:"other,omitempty"`
	Variants []BaselineVariant `json:"variants"`
	// NewFirst says, per lock-step round, whether the new build's process
	// ran its round first (the order is random and recorded).
	NewFirst []bool `json:"new_first,omitempty"`
	// PairOf gives, per interleaved round, the pair of processes (one of
	// each build) that took it: the unit the interleaved verdict replicates.
	PairOf []int `json:"pair_of,omitempty"`
	// FreshNewFirst says the same per pair of fresh processes, in the
	// order they ran.
	FreshNewFirst []bool `json:"fresh_new_first,omitempty"`
	// Asm of the previous build, per variant name.
	Asm map[string]string `json:"asm,omitempty"`
	// Counts are the previous build's instructions per pass (counts),
	// per variant name.
	Counts map[string]int64 `json:"counts,omitempty"`
	// Note says what could not be measured (a variant only one side has).
	Note string `json:"note,omitempty"`
	// Blocks is how many blocks were measured (blocks.go), and Stop why
	// they stopped there (StopDecided, ...); empty in results of the
	// design before blocks.
	Blocks int    `json:"blocks,omitempty"`
	Stop   string `json:"stop,omitempty"`
	// Verdicts are the headline: one verdict per variant on its warm pass,
	// from every block (JudgeBaseline).
	Verdicts []VariantVerdict `json:"verdicts,omitempty"`
	// Previous is, per variant whose timed code is not live in the
	// previous build, "dead" or "hollow".
	Previous map[string]string `json:"previous_state,omitempty"`
}

// Why the blocks of a before/after stopped.
const (
	StopDecided     = "decided" // every verdict was known
	StopBudget      = "budget"  // the next block would have ended past the budget
	StopPairs       = "pairs"   // pairs= blocks, as asked (or MaxPairs)
	StopInterrupted = "interrupted"
	StopFailed      = "failed" // a process failed
)

// VariantVerdict is the headline of one variant in a before/after: the
// warm pass of the new build against the previous build's, judged over the
// blocks (JudgeBaseline). Ratio, CILow and CIHigh are exp of the median
// block value and of its interval; for a variant that is dead or hollow in
// either build they are 0 and Verdict says which.
type VariantVerdict struct {
	Name    string  `json:"name"`
	Verdict string  `json:"verdict"`
	AsmSame bool    `json:"asm_same"`
	Ratio   float64 `json:"ratio"`
	CILow   float64 `json:"ci_low"`
	CIHigh  float64 `json:"ci_high"`
	// New and Previous say what each build's timed code is when it is not
	// live: "dead" or "hollow" (empty: live).
	New      string `json:"new,omitempty"`
	Previous string `json:"previous,omitempty"`
	// Blocks with a verdict's figures: the look that decided (or the
	// last), of which Positive had the new build slower.
	Blocks   int `json:"blocks"`
	Positive int `json:"positive"`
	// PValue is the sequential p-value, PAdjusted Holm's over the live
	// variants; Level the level the verdict is at (alpha over the live
	// variants left at its step).
	PValue    float64 `json:"p_value"`
	PAdjusted float64 `json:"p_adjusted"`
	Level     float64 `json:"level"`
}

// Verdicts of a baseline comparison.
const (
	VerdictFaster       = "faster"
	VerdictSlower       = "slower"
	VerdictNoDifference = "no difference"
	VerdictUndefined    = "undefined"
	// The headline of a variant whose timed code is not live in one of
	// the builds: no ratio of its times means what it seems to.
	VerdictDead   = "dead"
	VerdictHollow = "hollow"
)

// BaselineVariant is one variant in one series: the previous build's
// samples taken in this run, and new over previous.
type BaselineVariant struct {
	Name      string    `json:"name"`
	AsmSame   bool      `json:"asm_same"`
	Series    string    `json:"series"`
	SamplesNS []float64 `json:"samples_ns"`
	Ratio     float64   `json:"ratio"`
	CILow     float64   `json:"ci_low"`
	CIHigh    float64   `json:"ci_high"`
	PValue    *float64  `json:"p_value"`
	Verdict   string    `json:"verdict"`
	Stat
}

// Finding is one thing the run found, in words made from its numbers.
type Finding struct {
	Kind    string  `json:"kind"`
	Variant *string `json:"variant"`
	Text    string  `json:"text"`
}

// Prediction is written down before the run and judged after it.
type Prediction struct {
	Text     string   `json:"text"`
	A        string   `json:"a"`
	B        string   `json:"b"`
	Op       string   `json:"op"`
	Value    float64  `json:"value"`
	Observed *float64 `json:"observed"`
	Held     *bool    `json:"held"`
}

// Phase is one named step of the protocol, as it ran.
type Phase struct {
	Name    string  `json:"name"`
	Process string  `json:"process,omitempty"`
	Ms      float64 `json:"ms"`
}
