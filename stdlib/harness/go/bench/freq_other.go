//go:build !amd64

package bench

// freqAdds is the number of dependent operations per iteration of
// freqChainGo, which stands in for the assembly on this arch.
const freqAdds = 8

func freqChain(iterations, step uint64) uint64 { return freqChainGo(iterations, step) }
