package bench

// FreqAdds is the number of dependent one-cycle additions per iteration of
// FreqChain (freq_amd64.s).
const FreqAdds = 64

// FreqChainExact says FreqChain is hand-written assembly whose
// instructions are known: 64 dependent ADDQ per iteration.
const FreqChainExact = true

// FreqChain runs iterations x 64 dependent additions of step and returns
// their sum, iterations*64*step (mod 2^64). Implemented in freq_amd64.s.
func FreqChain(iterations, step uint64) uint64
