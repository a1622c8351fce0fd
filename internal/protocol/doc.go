// Package protocol runs the measurement protocol of seed 000 on a built
// native kernel and returns a Result that carries every sample behind every
// figure and everything that can change its numbers: warmup discarded,
// variants interleaved round robin with an A/A control, an in-process series
// beside a fresh-process series, the cold pass and its page faults, the
// clock, the load, the machine.
//
// It is the runner behind %bench and the command line. The result model
// (internal/result), the sentences (internal/findings), the numbers' text
// (internal/numtext), a bench cell's keys (internal/options), a sweep's
// planning (internal/sweep) and a kernel process (internal/kproc) are
// re-exported here (the *_alias.go files: protocol.Result is result.Result)
// for the packages that drive a run. A notebook's glue cells see none of
// this package: they see stdlib/bench, the small facade that names what a
// notebook uses.
package protocol
