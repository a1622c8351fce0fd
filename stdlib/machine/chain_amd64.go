package machine

// chainOpsPerIteration is the number of dependent one-cycle additions in
// one iteration of chainAdds (chain_amd64.s).
const chainOpsPerIteration = 64

// chainExact says chainAdds is hand-written assembly whose instructions are
// known: 64 dependent ADDQ per iteration.
const chainExact = true

// chainAdds runs iterations x 64 dependent additions of step and returns
// their sum, iterations*64*step (mod 2^64). Implemented in chain_amd64.s.
func chainAdds(iterations, step uint64) uint64
