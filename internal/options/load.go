package options

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/benchbook/benchbook/internal/machine"
)

// setLoad reads load=: N or alu:N (threads spinning on dependent adds),
// memory:N (threads streaming writes over twice the last-level cache).
func (o *Options) setLoad(val string) error {
	kind, n, hasKind := strings.Cut(val, ":")
	if !hasKind {
		kind, n = machine.LoadALU, val
	}
	k, err := strconv.Atoi(n)
	if err != nil || k < 0 || kind != machine.LoadALU && kind != machine.LoadMemory {
		return fmt.Errorf("load=%s: want a whole number of threads >= 0, alone or after a kind: load=2, load=alu:2 (dependent adds) or load=memory:2 (streaming writes over twice the last-level cache)", val)
	}
	o.Load, o.LoadKind = k, kind
	return nil
}
