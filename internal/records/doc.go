// Package records is the driver protocol as the host reads it: records.md
// (beside this file) is its spec, and its records block is the grammar
// Reader holds every line of a kernel's record file to, embedded here, so
// that the spec and the reader cannot drift apart. Each record is decoded
// once into its typed record (Sample, Clock, Latency, ...), which the
// host's consumers read instead of keys spelled at the call; the typed
// records are generated from the same block (typed_gen.go, `go generate
// ./internal/records`). The drivers that write the records are
// internal/harness's (c/, go/bench/), whose conformance tests run them
// against this spec.
package records
