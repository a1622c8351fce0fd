package harness

import (
	"context"
	"fmt"
)

// MaxLayouts is the most code layouts BuildLayouts builds of one kernel.
const MaxLayouts = 8

// LayoutFlags are the flags that layout i (from 0) of a C kernel adds to
// its own: none for layout 0, the kernel's ordinary build, and
// -falign-functions=A -falign-loops=A with A = 16<<i for the others (32,
// 64, ..., 2048): the same instructions, with every function and loop of
// the binary aligned otherwise, so that the code lands at other offsets
// in cache lines, in the decoders' fetch windows and in pages.
func LayoutFlags(i int) []string {
	if i <= 0 {
		return nil
	}
	a := 16 << i
	return []string{fmt.Sprintf("-falign-functions=%d", a), fmt.Sprintf("-falign-loops=%d", a)}
}

// BuildLayouts builds k code layouts of a C kernel for layouts=k: the
// kernel's own build, then k-1 builds with LayoutFlags(1..k-1) after its
// flags. The flags are part of each build's cache key, so every layout is
// its own cache entry and binary. The code of a timed function differs
// between layouts only in alignment padding (asm.Normalize drops it).
// Go kernels are not supported: the go command has no flag that aligns
// the compiler's functions or loops, and a padding function linked before
// the kernel would need the linker's order, which Go does not expose.
func BuildLayouts(ctx context.Context, spec Spec, k int) ([]*Kernel, error) {
	if spec.Lang != "c" {
		return nil, &Error{Stage: "flags", Message: fmt.Sprintf(
			"layouts=%d: code layouts are built for %%%%c kernels only; the go command has no flag to align functions or loops", k)}
	}
	if k < 1 || k > MaxLayouts {
		return nil, &Error{Stage: "flags", Message: fmt.Sprintf("layouts=%d: from 1 to %d", k, MaxLayouts)}
	}
	base := spec.Flags
	if base == nil {
		base = DefaultFlags(spec.Lang)
	}
	kernels := make([]*Kernel, 0, k)
	for i := 0; i < k; i++ {
		s := spec
		s.Flags = append(append([]string{}, base...), LayoutFlags(i)...)
		kern, err := Build(ctx, s)
		if err != nil {
			return nil, err
		}
		kernels = append(kernels, kern)
	}
	return kernels, nil
}
