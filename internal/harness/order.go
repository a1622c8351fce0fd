package harness

import (
	"fmt"
	"math/bits"

	"github.com/benchbook/benchbook/internal/records"
)

// splitmixGamma is splitmix64's increment: its state after n draws from
// seed S is S + n*gamma, so any round's draws can be reached directly.
const splitmixGamma = 0x9E3779B97F4A7C15

// splitmix64 returns the output for the state after an increment: the
// finaliser of Steele, Lea and Flood's generator (Java's SplittableRandom).
func splitmix64(state uint64) uint64 {
	z := state
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// RoundOrder returns the order in which a driver run with -order-seed seed
// ran nslots slots in measured round round (0-based): order[pos] is the
// slot that ran at position pos, the pos field of its sample record.
//
// Both drivers seed splitmix64 with seed once per process and, before each
// round, shuffle the slot order 0..nslots-1 by Fisher-Yates: for i from
// nslots-1 down to 1, j is the high 64 bits of next()*(i+1) and slots i and
// j swap. A round takes nslots-1 draws. See records.md.
func RoundOrder(seed uint64, round, nslots int) []int {
	order := make([]int, max(nslots, 0))
	for i := range order {
		order[i] = i
	}
	if nslots < 2 || round < 0 {
		return order
	}
	state := seed + uint64(round)*uint64(nslots-1)*splitmixGamma
	for i := nslots - 1; i > 0; i-- {
		state += splitmixGamma
		j, _ := bits.Mul64(splitmix64(state), uint64(i+1))
		order[i], order[j] = order[j], order[i]
	}
	return order
}

// CheckOrder checks the sample records of one run over nslots slots against
// the order the driver should have run them in: RoundOrder of *seed, or the
// slot order if seed is nil (a run without -order-seed). Every sample must
// name its position, and no round may run a position or a slot twice.
func CheckOrder(recs []records.Record, nslots int, seed *uint64) error {
	type key struct{ round, n int64 }
	orders := map[int64][]int{}
	seenPos, seenSlot := map[key]bool{}, map[key]bool{}
	for _, r := range recs {
		if r.Kind != "sample" {
			continue
		}
		s, err := records.Decode[records.Sample](r)
		if err != nil {
			return err
		}
		round, slot, pos := s.Round, s.Slot, s.Pos
		if pos < 0 || pos >= int64(nslots) || slot < 0 || slot >= int64(nslots) {
			return fmt.Errorf("line %d: slot %d at pos %d, but the run has %d slots", r.Line, slot, pos, nslots)
		}
		if seenPos[key{round, pos}] || seenSlot[key{round, slot}] {
			return fmt.Errorf("line %d: round %d runs pos %d or slot %d twice", r.Line, round, pos, slot)
		}
		seenPos[key{round, pos}], seenSlot[key{round, slot}] = true, true
		want := pos
		if seed != nil {
			order, ok := orders[round]
			if !ok {
				order = RoundOrder(*seed, int(round), nslots)
				orders[round] = order
			}
			want = int64(order[pos])
		}
		if slot != want {
			return fmt.Errorf("line %d: round %d ran slot %d at pos %d, the order says slot %d", r.Line, round, slot, pos, want)
		}
	}
	return nil
}

// SeedAtRound is the -order-seed that makes a driver's round i run in the
// order RoundOrder(seed, round+i, nslots): how a run spread over several
// processes continues one sequence of rounds.
func SeedAtRound(seed uint64, round, nslots int) uint64 {
	if nslots < 2 || round <= 0 {
		return seed
	}
	return seed + uint64(round)*uint64(nslots-1)*splitmixGamma
}
