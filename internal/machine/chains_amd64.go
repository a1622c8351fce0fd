package machine

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// chainOps is the number of dependent instructions per iteration of each
// chain of chains_amd64.s.
const chainOps = 64

// chainsExact says the chains are hand-written assembly whose instructions
// are known (ADDSS, ADDSD, MULSD, MOVQ (AX), AX).
const chainsExact = true

func addssChain(iterations uint64, x float32) float32

func addsdChain(iterations uint64, x float64) float64

func mulsdChain(iterations uint64, x float64) float64

func loadChain(iterations uint64, p unsafe.Pointer) unsafe.Pointer

func vzeroupper()

// streamRead reads lines cache lines from p in order, every byte (SSE2
// loads into four accumulators), and returns their sum.
func streamRead(p unsafe.Pointer, lines uint64) uint64

// cleanVector clears the upper halves of the vector registers before an
// SSE chain, where the CPU has AVX (vzeroupper).
func cleanVector() {
	if cpu.X86.HasAVX {
		vzeroupper()
	}
}
