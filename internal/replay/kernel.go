package replay

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/benchbook/benchbook/internal/harness"
)

// NewKernel writes sc into dir and returns a built kernel named name whose
// Binary runs the replay driver on it: a symbolic link dir/name to the
// running executable (a test binary whose init calls Main) and the
// scenario at dir/name+ScenarioSuffix. Its variants are the scenario's
// (Dead where the scenario says), Setup its Setup; the source hash is the
// scenario's, so two kernels of different scenarios differ.
func NewKernel(dir, name string, sc Scenario) (*harness.Kernel, error) {
	if err := sc.check(); err != nil {
		return nil, err
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(sc, "", "  ")
	if err != nil {
		return nil, err
	}
	bin := filepath.Join(dir, name)
	if err := os.WriteFile(bin+ScenarioSuffix, b, 0o600); err != nil {
		return nil, err
	}
	if err := os.Symlink(exe, bin); err != nil {
		return nil, fmt.Errorf("replay kernel %s: %w", name, err)
	}
	sum := sha256.Sum256(b)
	k := &harness.Kernel{Name: name, Lang: sc.Lang, Compiler: "replay driver", Binary: bin, Setup: sc.Setup,
		SourceSHA256: hex.EncodeToString(sum[:]), BinarySHA256: hex.EncodeToString(sum[:]), Label: "replay " + name,
		Source: string(b)}
	if k.Lang == "" {
		k.Lang = "c"
	}
	for i, v := range sc.Variants {
		line := v.Line
		if line == 0 {
			line = i + 2
		}
		// Its "assembly" is its times, in objdump's form: two builds
		// whose variant replays the same times read "assembly identical".
		var recorded float64
		for _, ns := range v.Recorded {
			recorded += ns
		}
		asm := fmt.Sprintf("0000000000401000 <replay_%s>:\n  401000:\tmov    $%#x,%%rax\n  401007:\tmov    $%#x,%%rdx\n"+
			"  40100e:\tmov    $%#x,%%rcx\n  401015:\tmov    $%#x,%%rsi\n  40101c:\tret\n",
			v.Name, int64(v.NS), int64(v.Noise*1e6), int64(recorded), b2i(v.Dead))
		hv := harness.Variant{Name: v.Name, Line: line, Symbol: "replay_" + v.Name, Dead: v.Dead, Asm: asm, BatchAsm: asm,
			Finding: "replayed times", BatchSymbol: "replay_batch_" + v.Name, BatchDead: v.Dead}
		if v.Dead {
			hv.Finding = "the region holds no work (replayed)"
		}
		k.Variants = append(k.Variants, hv)
	}
	return k, nil
}
