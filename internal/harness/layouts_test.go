package harness

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/benchbook/benchbook/internal/asm"
)

// K layouts of a C kernel are K different binaries whose timed and batch
// functions hold the same instructions (asm.Normalize, which drops
// alignment padding, gives the same listing) at addresses that differ.
func TestBuildLayouts(t *testing.T) {
	const k = 4
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	spec := seedSpec(t, "c", nil)
	kernels, err := BuildLayouts(ctx, spec, k)
	if err != nil {
		t.Fatal(err)
	}
	if len(kernels) != k {
		t.Fatalf("%d kernels, want %d", len(kernels), k)
	}
	var sums, keys, addrs []string
	for i, kern := range kernels {
		if want := strings.Join(append(DefaultFlags("c"), LayoutFlags(i)...), " "); strings.Join(kern.Flags, " ") != want {
			t.Errorf("layout %d: flags %q, want %q", i, kern.Flags, want)
		}
		sums, keys = append(sums, kern.BinarySHA256), append(keys, kern.Key)
		var at []string
		for j, v := range kern.Variants {
			at = append(at, fmt.Sprintf("%x", v.Func.Insts[0].Addr))
			ref := kernels[0].Variants[j]
			if !slices.Equal(asm.Normalize(v.Asm), asm.Normalize(ref.Asm)) {
				d, _ := asm.Diff(ref.Asm, v.Asm)
				t.Errorf("layout %d, %s: the timed function differs beyond alignment:\n%s", i, v.Name, d)
			}
			if !slices.Equal(asm.Normalize(v.BatchAsm), asm.Normalize(ref.BatchAsm)) {
				d, _ := asm.Diff(ref.BatchAsm, v.BatchAsm)
				t.Errorf("layout %d, %s: the batch function differs beyond alignment:\n%s", i, v.Name, d)
			}
			if v.Dead != ref.Dead || v.Hollow != ref.Hollow {
				t.Errorf("layout %d, %s: dead=%v hollow=%v, layout 0 dead=%v hollow=%v", i, v.Name, v.Dead, v.Hollow, ref.Dead, ref.Hollow)
			}
		}
		addrs = append(addrs, strings.Join(at, ","))
	}
	for _, list := range [][]string{sums, keys, addrs} {
		c := slices.Clone(list)
		slices.Sort(c)
		if len(slices.Compact(c)) != k {
			t.Errorf("want %d different: %q", k, list)
		}
	}
	if kernels[0].Key != build(t, spec).Key {
		t.Error("layout 0 is not the kernel's own build")
	}
}

func TestBuildLayoutsRefusesGo(t *testing.T) {
	_, err := BuildLayouts(context.Background(), seedSpec(t, "go", nil), 2)
	var be *Error
	if !errors.As(err, &be) || !strings.Contains(be.Message, "%%c kernels only") {
		t.Errorf("want an error saying layouts are for C kernels only, got %v", err)
	}
}
