package stats

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func BenchmarkSummarize(b *testing.B) {
	for _, n := range []int{30, 10_000} {
		x := noisy(rand.New(rand.NewPCG(1, 1)), n, 500_000, 0.02)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				Summarize(x)
			}
		})
	}
}

func BenchmarkRatioOfMedians(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	x, y := noisy(rng, 30, 1000, 0.02), noisy(rng, 30, 1000, 0.02)
	for b.Loop() {
		RatioOfMedians(x, y, Bootstrap{Seed: 1, Paired: true})
	}
}

func BenchmarkCompare(b *testing.B) {
	for _, n := range []int{30, 200} {
		rng := rand.New(rand.NewPCG(1, 1))
		x, y := noisy(rng, n, 1000, 0.02), noisy(rng, n, 1000, 0.02)
		b.Run(fmt.Sprintf("paired/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				ComparePaired(x, y, 0.05)
			}
		})
		b.Run(fmt.Sprintf("unpaired/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				CompareUnpaired(x, y, 0.05)
			}
		})
	}
}
