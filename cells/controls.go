package cells

import (
	"context"
	"errors"
	"fmt"

	"github.com/benchbook/benchbook/internal/harness"
	"github.com/benchbook/benchbook/internal/protocol"
)

// control prepares a control (pages=, pad=; internal/protocol/controls.go):
// run is what runs as the kernel, base what runs beside it in the
// baseline's place, note what the result says of it.
//   - pages=huge: k itself on both sides, the driver's -pages option
//     differing;
//   - pad=BYTES: k built again with -DBENCH_PAD=BYTES (C only) as the
//     kernel, k beside it.
func (s *Session) control(ctx context.Context, name string, k *harness.Kernel, opt protocol.Options) (run, base *harness.Kernel, note string, err error) {
	if opt.Layouts > 1 {
		return nil, nil, "", errors.New("pages= and pad= do not combine with layouts=: the control is measured beside the kernel in one layout")
	}
	if opt.Pages == "huge" {
		return k, k, "pages=huge: the same binary runs with huge pages for its static and setup memory beside itself with 4 KiB pages, in the same run", nil
	}
	s.mu.Lock()
	spec, ok := s.specs[name]
	s.mu.Unlock()
	if !ok {
		return nil, nil, "", fmt.Errorf("pad=%d: %s was not built from a %%%%c cell of this session", opt.Pad, name)
	}
	if spec.Lang != "c" {
		return nil, nil, "", fmt.Errorf("pad=%d: %s is a %s kernel; BENCH_PAD is a macro of %%%%c kernels", opt.Pad, name, spec.Lang)
	}
	padded, err := buildPadded(ctx, spec, opt.Pad)
	if err != nil {
		return nil, nil, "", err
	}
	if padded.BinarySHA256 == k.BinarySHA256 {
		return nil, nil, "", fmt.Errorf("pad=%d: the build with -DBENCH_PAD=%d is byte for byte the build without: %s does not use BENCH_PAD; "+
			"pad its rows with it, e.g. static float m[R][C + BENCH_PAD / sizeof(float)]", opt.Pad, opt.Pad, name)
	}
	return padded, k, fmt.Sprintf("pad=%d: %s built with -DBENCH_PAD=%d runs beside the build without (BENCH_PAD 0), in the same run", opt.Pad, name, opt.Pad), nil
}

// buildPadded builds spec with -DBENCH_PAD=pad after its own flags; a cell
// that #defines BENCH_PAD itself without #ifndef is refused, naming the line.
func buildPadded(ctx context.Context, spec harness.Spec, pad int64) (*harness.Kernel, error) {
	s := spec
	flags := spec.Flags
	if flags == nil {
		flags = harness.DefaultFlags("c")
	}
	s.Flags = append(append([]string{}, flags...), fmt.Sprintf("-DBENCH_PAD=%d", pad))
	k, err := harness.Build(ctx, s)
	if err != nil {
		var be *harness.Error
		if errors.As(err, &be) {
			return nil, cellError(buildErrorName(be.Stage), spec.Label, be.Line, fmt.Sprintf("pad=%d: the padded build does not build:\n%s", pad, be.Message))
		}
		return nil, cellError("BuildError", spec.Label, 0, fmt.Sprintf("pad=%d: the padded build does not build: %v", pad, err))
	}
	for _, m := range redefinedRE.FindAllStringSubmatch(k.Warnings, -1) {
		if m[3] == "BENCH_PAD" {
			return nil, cellError("KernelError", spec.Label, 0, fmt.Sprintf(
				"pad=%d: the cell #defines BENCH_PAD itself (%s:%s), which overrides -DBENCH_PAD=%d: drop it (benchbook.h defines it as 0 unless given)", pad, m[1], m[2], pad))
		}
	}
	return k, nil
}
