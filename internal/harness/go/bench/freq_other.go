//go:build !amd64

package bench

// FreqAdds is the number of dependent one-cycle operations per iteration
// of FreqChainGo, which stands in for the assembly on this arch.
const FreqAdds = FreqGoOps

// FreqChainExact is false: on this arch the chain is compiled Go, whose
// instructions the compiler chooses (see FreqChainGo), so the estimate is
// less exact than on amd64.
const FreqChainExact = false

// FreqChain runs the compiled-Go chain of dependent operations.
func FreqChain(iterations, step uint64) uint64 { return FreqChainGo(iterations, step) }
