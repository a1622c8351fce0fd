package bench

// freqAdds is the number of dependent one-cycle additions per iteration of
// freqChain (freq_amd64.s).
const freqAdds = 64

// freqChain runs iterations x 64 dependent ADDQ of step. freq_amd64.s.
func freqChain(iterations, step uint64) uint64
