//go:build !amd64

package machine

// chainOpsPerIteration is the number of dependent one-cycle operations in
// one iteration of chainGo, which stands in for the assembly on this arch.
const chainOpsPerIteration = chainGoOpsPerIteration

// chainExact is false: on this arch the chain is compiled Go, whose
// instructions the compiler chooses (see chainGo), so the estimate is less
// exact than on amd64.
const chainExact = false

// chainAdds runs the pure-Go chain of dependent operations.
func chainAdds(iterations, step uint64) uint64 {
	return chainGo(iterations, step)
}
