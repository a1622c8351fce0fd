package cells

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/benchbook/benchbook/stdlib/display"
	"github.com/benchbook/benchbook/stdlib/harness"
	"github.com/benchbook/benchbook/stdlib/report"
)

// native builds a %%c or %%go cell and shows its build and assembly.
func (s *Session) native(ctx context.Context, label string, m Magic, pub display.Publisher) error {
	lang := "c"
	if m.Kind == NativeGo {
		lang = "go"
	}
	var flags []string
	if len(m.Args) > 0 {
		flags = m.Args
	}
	k, err := harness.Build(ctx, harness.Spec{Name: m.Name, Lang: lang, Code: m.Body, Line: m.BodyLine, Label: label,
		Flags: flags, CacheDir: s.opt.CacheDir})
	if err != nil {
		var be *harness.Error
		if errors.As(err, &be) {
			return cellError(buildErrorName(be.Stage), label, be.Line, be.Message)
		}
		if ctx.Err() != nil {
			return cellError("Interrupted", label, 0, "the build was interrupted")
		}
		return cellError("BuildError", label, 0, err.Error())
	}
	s.mu.Lock()
	prev := s.kernels[m.Name]
	s.kernels[m.Name] = k
	s.mu.Unlock()
	if prev != nil && prev.Key != k.Key {
		pub.Stream("stdout", fmt.Sprintf("%s was defined before in this session; it is replaced (%s).\n", m.Name, whatChanged(prev, k)))
	}
	pub.Display(display.Bundle{Data: report.Build(k), ID: display.NewID()}, false)
	return nil
}

func buildErrorName(stage string) string {
	switch stage {
	case "compile":
		return "CompileError"
	case "flags":
		return "FlagError"
	case "toolchain":
		return "ToolchainMissing"
	case "source", "magic":
		return "KernelError"
	}
	return "BuildError"
}

func whatChanged(prev, k *harness.Kernel) string {
	var what []string
	if prev.SourceSHA256 != k.SourceSHA256 {
		what = append(what, "source changed")
	}
	if fmt.Sprint(prev.Flags) != fmt.Sprint(k.Flags) {
		what = append(what, fmt.Sprintf("flags %v -> %v", prev.Flags, k.Flags))
	}
	if prev.Compiler != k.Compiler {
		what = append(what, "compiler changed")
	}
	if prev.Lang != k.Lang {
		what = append(what, "language changed")
	}
	if len(what) == 0 {
		what = append(what, "harness changed")
	}
	return joinAnd(what)
}

func joinAnd(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	out := parts[0]
	for _, p := range parts[1 : len(parts)-1] {
		out += ", " + p
	}
	return out + " and " + parts[len(parts)-1]
}

func sortStrings(s []string) []string {
	sort.Strings(s)
	return s
}
