package machine

// A fingerprint is what a machine measures of itself, beside what it says
// of itself (Description). On this project's VMs one description ("AMD
// EPYC", family 25 model 1) named hosts where a dependent addss took 2
// cycles and hosts where it took 3, hosts that map the zero page on a
// first read and hosts that allocate: the description cannot tell two
// hosts apart, the measured latencies can. Every entry is the median of
// repeated trials and carries its own noise, so that two fingerprints are
// the same hardware only when every entry agrees within the noise both
// state (Agree).

// FingerprintVersion is the version of the fingerprint's measurements:
// two fingerprints of different versions measured different things.
// Version 2 states the 16 KiB and 256 KiB chases in cycles, not ns.
const FingerprintVersion = 2

// Fingerprint is a machine's measured identity and the boot conditions
// that change results.
type Fingerprint struct {
	Version int `json:"version"`
	// Host is the host name, as a label: two runs on one host name are not
	// thereby the same hardware (a VM's name says nothing of its host).
	Host string `json:"host"`
	// Skipped says why no entry was measured ("fingerprint=off"); the boot
	// conditions are recorded all the same.
	Skipped string `json:"skipped,omitempty"`
	// Entries are the measured latencies, in the order Measure takes them:
	// the dependent chains, the chase, the clock.
	Entries []Entry `json:"entries"`
	// ZeroPage is whether an anonymous read maps the shared zero page.
	ZeroPage *ZeroPage `json:"zero_page,omitempty"`
	// Boot is what the kernel was booted with: its command line, the
	// state of each CPU vulnerability's mitigation, PCID.
	Boot Boot `json:"boot"`
	// CPU is the CPU the measurements were pinned to (-1: not pinned).
	CPU int `json:"cpu"`
	// Exact is true where the chains are assembly of known instructions
	// (amd64); elsewhere they are compiled Go and the cycles approximate.
	Exact bool `json:"exact"`
	// MS is how long the measurements took, in milliseconds.
	MS float64 `json:"ms"`
	// Notes says what could not be measured or read, and why.
	Notes []string `json:"notes,omitempty"`
}

// Entry is one measured latency or bandwidth: the median of its trials, in Unit, with
// its noise. Trials are in the order taken. NS and Cycles give it in both
// units where both apply (a chain's cycles are its time against the
// integer chain's in the same round; a chase's cycles are its time at the
// integer chain's median clock).
type Entry struct {
	Name   string    `json:"name"`
	What   string    `json:"what"`
	Unit   string    `json:"unit"` // "cycles", "ns" or "GB/s" (bytes per ns): what Value, Noise and Trials are in
	Value  float64   `json:"value"`
	Noise  float64   `json:"noise"`
	Trials []float64 `json:"trials"`
	NS     float64   `json:"ns,omitempty"`
	Cycles float64   `json:"cycles,omitempty"`
	// Bytes is the memory a trial goes through, for the entries that have
	// a working set (the chase, the streaming read); 0 in results made
	// before it was recorded.
	Bytes int64 `json:"bytes,omitempty"`
}

// ZeroPage is the result of reading then writing a fresh anonymous
// mapping of Pages pages, one byte a page: where a read maps the shared
// zero page, the reads fault once a page and the writes fault again (copy
// on write); where a read allocates (a boot switch can make it), the
// writes do not fault.
type ZeroPage struct {
	Mapped      bool  `json:"mapped"`
	Pages       int   `json:"pages"`
	ReadFaults  int64 `json:"read_faults"`
	WriteFaults int64 `json:"write_faults"`
}

// Boot is what the running kernel was booted with.
type Boot struct {
	Cmdline string `json:"cmdline"`
	// Mitigations is each file of /sys/devices/system/cpu/vulnerabilities
	// and its content ("Mitigation: PTI", "Not affected", ...).
	Mitigations map[string]string `json:"mitigations"`
	// PCID is "yes" when the CPU flags list pcid, "no" when they do not,
	// "off" when they do and the command line says nopcid; Unknown
	// without flags. Without PCID, page-table isolation flushes the user
	// TLB at every system call.
	PCID string `json:"pcid"`
}

// Entry returns the entry named name, or nil.
func (f *Fingerprint) Entry(name string) *Entry {
	if f == nil {
		return nil
	}
	for i := range f.Entries {
		if f.Entries[i].Name == name {
			return &f.Entries[i]
		}
	}
	return nil
}

// floor is the least noise an entry states: rel of its value, and abs in
// its unit.
type floor struct{ rel, abs float64 }

// entryFloors are the least noise of each entry: how far its median moved
// between runs on this project's 2-vCPU VMs (bench/fingerprint.sh runs it
// 20 times in a row and prints each entry's largest move against its
// stated noise). A chain's cycles are a ratio of two times a millisecond
// apart and move under 1%, except when another tenant's thread shares the
// core; a chase beyond the private caches meets whatever else uses the
// shared L3 and memory (in 20 runs here: 4 MiB 47-72 ns, 64 MiB 189-245 ns); the clock's read cost
// moves with the core's clock.
var entryFloors = map[string]floor{
	"int_add":    {rel: 0.10},
	"addss":      {rel: 0.05},
	"addsd":      {rel: 0.05},
	"mulsd":      {rel: 0.05},
	"load":       {rel: 0.05},
	"chase_16K":  {rel: 0.10},
	"chase_256K": {rel: 0.15},
	"chase_4M":   {rel: 0.40},
	"chase_64M":  {rel: 0.20},
	StreamEntry:  {rel: 0.20},
	"clock_grid": {abs: 0.5},
	"clock_read": {rel: 0.10},
}
