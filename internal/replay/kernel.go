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
		hv := harness.Variant{Name: v.Name, Line: line, Symbol: "replay_" + v.Name, Dead: v.Dead,
			Finding: "replayed times", BatchSymbol: "replay_batch_" + v.Name, BatchDead: v.Dead}
		if v.Dead {
			hv.Finding = "the region holds no work (replayed)"
		}
		k.Variants = append(k.Variants, hv)
	}
	return k, nil
}
