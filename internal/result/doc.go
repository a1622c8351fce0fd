// Package result is the result model of internal/protocol: the types of a run
// of the measurement protocol and their JSON form (the MIME entry
// application/vnd.benchbook.result+json), and the figures read off them
// (series, summaries, ratios, the clock timeline, latency percentiles,
// predictions judged). It runs nothing: internal/protocol runs the protocol and
// fills a Result, and re-exports these names (protocol.Result is
// result.Result); the notebook's facade, stdlib/bench, names those a glue
// cell uses.
package result
