package cells

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/benchbook/benchbook/internal/harness"
	"github.com/benchbook/benchbook/stdlib/display"
	"github.com/benchbook/benchbook/stdlib/report"
)

// native builds a %%c, %%go or %%gotest cell and shows its build and assembly.
func (s *Session) native(ctx context.Context, label string, m Magic, pub display.Publisher) error {
	lang := map[Kind]string{NativeC: "c", NativeGo: "go", NativeGoTest: "gotest"}[m.Kind]
	var flags []string
	if len(m.Args) > 0 {
		flags = m.Args
	}
	spec := harness.Spec{Name: m.Name, Lang: lang, Code: m.Body, Line: m.BodyLine, Label: label,
		Flags: flags, CacheDir: s.opt.CacheDir}
	k, err := harness.Build(ctx, spec)
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
	s.specs[m.Name] = spec
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

// whatChanged says what differs between two builds of a kernel, from the
// inputs their cache keys are hashes of; each clause is true of the two
// builds, and "unchanged (cached)" when nothing that reaches the binary did.
func whatChanged(prev, k *harness.Kernel) string {
	var what []string
	pin, in := prev.Inputs, k.Inputs
	if prev.SourceSHA256 != k.SourceSHA256 {
		what = append(what, "source changed")
	} else if pin != nil && in != nil && pin["line"] != in["line"] {
		what = append(what, fmt.Sprintf("the code starts on cell line %s, not %s (#line puts it in the binary)", in["line"], pin["line"]))
	}
	if fmt.Sprint(prev.Flags) != fmt.Sprint(k.Flags) {
		what = append(what, fmt.Sprintf("flags %v -> %v", prev.Flags, k.Flags))
	}
	if prev.Compiler != k.Compiler {
		what = append(what, fmt.Sprintf("compiler %s -> %s", prev.Compiler, k.Compiler))
	} else if prev.CompilerPath != k.CompilerPath {
		what = append(what, fmt.Sprintf("compiler %s -> %s", prev.CompilerPath, k.CompilerPath))
	}
	if prev.Lang != k.Lang {
		what = append(what, fmt.Sprintf("language %s -> %s", prev.Lang, k.Lang))
	}
	var env []string
	for _, name := range sortStrings(envNames(pin, in)) {
		b, hadB := pin[name]
		a, hasA := in[name]
		switch {
		case hadB && hasA && a != b:
			env = append(env, fmt.Sprintf("%s=%s (was %s)", name[len("env "):], a, b))
		case hadB != hasA && hasA:
			env = append(env, fmt.Sprintf("%s=%s (was unset)", name[len("env "):], a))
		case hadB != hasA:
			env = append(env, fmt.Sprintf("%s unset (was %s)", name[len("env "):], b))
		}
	}
	if len(env) > 0 {
		what = append(what, "environment changed: "+strings.Join(env, ", "))
	}
	if pin != nil && in != nil && pin["harness"] != in["harness"] {
		what = append(what, "the harness changed (benchbook was rebuilt)")
	}
	if len(what) == 0 && pin != nil && in != nil && pin["generated"] != in["generated"] {
		what = append(what, "the code benchbook generates around the cell changed (benchbook was rebuilt)")
	}
	if len(what) == 0 {
		if prev.Key == k.Key {
			return "unchanged (cached)"
		}
		// Kernels built before their inputs were recorded.
		return fmt.Sprintf("the build inputs differ: cache key %s -> %s", prev.Key, k.Key)
	}
	return joinAnd(what)
}

// envNames are the environment inputs of either build.
func envNames(a, b map[string]string) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range []map[string]string{a, b} {
		for name := range m {
			if strings.HasPrefix(name, "env ") && !seen[name] {
				seen[name] = true
				out = append(out, name)
			}
		}
	}
	return out
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
