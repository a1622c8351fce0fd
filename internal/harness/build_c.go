package harness

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/benchbook/benchbook/internal/procs"

	"github.com/benchbook/benchbook/internal/asm"
)

type cToolchain struct{}

// compilerCommand is $CC, else cc.
func compilerCommand() string {
	if cc := strings.TrimSpace(os.Getenv("CC")); cc != "" {
		return cc
	}
	return "cc"
}

func (cToolchain) identity(ctx context.Context) (string, string, error) {
	cc := compilerCommand()
	path, err := exec.LookPath(cc)
	if err != nil {
		return "", "", &Error{Stage: "toolchain", Message: fmt.Sprintf(
			"the C compiler %q is not on PATH: install the Debian package gcc (apt-get install gcc) or set CC", cc)}
	}
	out, err := procs.OutputProc(ctx, command("", path, "--version"))
	if err != nil && ctx.Err() != nil {
		return "", "", ctx.Err()
	}
	if err != nil {
		return "", "", &Error{Stage: "toolchain", Message: fmt.Sprintf("%s --version failed: %v", path, err)}
	}
	first, _, _ := strings.Cut(string(out), "\n")
	return strings.TrimSpace(first), path, nil
}

var benchRE = regexp.MustCompile(`\bBENCH\s*\(\s*([^)\s]*)\s*\)`)
var setupRE = regexp.MustCompile(`\bBENCH_SETUP\s*\(\s*\)`)
var cIdentRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func (cToolchain) prepare(spec Spec, dir string) ([]Variant, bool, error) {
	var vs variantSet
	setup := false
	for i, line := range strings.Split(spec.Code, "\n") {
		code := stripCComment(line)
		cellLine := spec.Line + i
		if setupRE.MatchString(code) {
			setup = true
		}
		ops, err := benchOps(code, cellLine)
		if err != nil {
			return nil, false, err
		}
		for _, m := range append(benchRE.FindAllStringSubmatch(code, -1), ops...) {
			name := m[1]
			if !cIdentRE.MatchString(name) {
				return nil, false, &Error{Stage: "source", Line: cellLine, Message: fmt.Sprintf(
					"BENCH(%s): a variant name must be a C identifier (letters, digits, _)", name)}
			}
			if err := vs.add(name, cellLine, "bench_time_"+name); err != nil {
				return nil, false, err
			}
			markOps(&vs, m)
		}
	}
	variants, err := vs.done(spec.Name, "BENCH(name) { ... }")
	if err != nil {
		return nil, false, err
	}
	if err := writeTree("c", dir); err != nil {
		return nil, false, err
	}
	src := fmt.Sprintf("#include \"benchbook.h\"\n#line %d \"%s\"\n%s\n", spec.Line, spec.Label, spec.Code)
	return variants, setup, os.WriteFile(filepath.Join(dir, "cell.c"), []byte(src), 0o600)
}

// stripCComment drops a // comment so that BENCH in a comment is not a variant.
func stripCComment(line string) string {
	if i := strings.Index(line, "//"); i >= 0 {
		return line[:i]
	}
	return line
}

var unrecognizedRE = regexp.MustCompile(`(?:unrecognized command[- ]line option|unknown argument|unrecognized option|invalid argument)[^'"‘]*['"‘]([^'"’]+)['"’]`)

// The dependency lists a C build writes in its folder: the headers every
// translation unit read (gcc's SUNPRO_DEPENDENCIES, system headers
// included, appended unit by unit) and the files the linker read (ld's
// --dependency-file).
const (
	ccDepFile = ".bbdeps-cc.d"
	ldDepFile = ".bbdeps-ld.d"
)

func (cToolchain) compile(ctx context.Context, spec Spec, flags []string, dir, out string) (string, error) {
	_, path, err := cToolchain{}.identity(ctx)
	if err != nil {
		return "", err
	}
	msg, err := runCC(ctx, path, flags, dir, out, true)
	if err != nil && ctx.Err() == nil && strings.Contains(msg, "dependency-file") {
		// A linker without --dependency-file: built all the same, and
		// deps says that the list is missing.
		msg, err = runCC(ctx, path, flags, dir, out, false)
	}
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		if m := unrecognizedRE.FindStringSubmatch(msg); m != nil {
			return "", &Error{Stage: "flags", Message: fmt.Sprintf("%s rejected the flag %s:\n%s", filepath.Base(path), m[1], msg)}
		}
		return "", &Error{Stage: "compile", Line: firstErrorLine(msg, spec.Label), Message: msg}
	}
	return msg, nil
}

// runCC runs the compiler once on the cell and the driver, with the
// linker's dependency list when linkDeps is set.
func runCC(ctx context.Context, path string, flags []string, dir, out string, linkDeps bool) (string, error) {
	_ = os.Remove(filepath.Join(dir, ccDepFile))
	args := append(append([]string{}, flags...), "-I", dir, "-o", out, filepath.Join(dir, "cell.c"),
		filepath.Join(dir, "driver.c"), "-lm")
	if linkDeps {
		args = append(args, "-Wl,--dependency-file="+ldDepFile)
	}
	cmd := command(dir, path, args...)
	// The compiler's temporary files go to the build folder, which is
	// removed whatever happens, even when cc is killed before its cleanup.
	cmd.Env = append(cmd.Env, "TMPDIR="+dir, "SUNPRO_DEPENDENCIES="+ccDepFile)
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err := procs.RunProc(ctx, cmd)
	return tidyCompilerOutput(buf.String(), dir), err
}

// deps are the files the compiler and the linker said they read.
func (cToolchain) deps(_ context.Context, _ Spec, _ []string, dir string) ([]string, error) {
	cc, err := readDepFile(dir, ccDepFile)
	if err != nil {
		return nil, err
	}
	ld, err := readDepFile(dir, ldDepFile)
	if err != nil {
		return nil, fmt.Errorf("the linker: %w", err)
	}
	return append(cc, ld...), nil
}

// tidyCompilerOutput makes the compiler's words about the harness read in the
// cell's terms: bench_body_x is the body of BENCH(x).
func tidyCompilerOutput(s, dir string) string {
	s = strings.ReplaceAll(s, dir+string(filepath.Separator), "")
	s = regexp.MustCompile(`bench_body_([A-Za-z0-9_]+)`).ReplaceAllString(s, "BENCH($1)")
	return strings.TrimSpace(s)
}

// firstErrorLine returns the cell line of the first "label:LINE:" in msg.
func firstErrorLine(msg, label string) int {
	re := regexp.MustCompile(regexp.QuoteMeta(label) + `:(\d+)(?::\d+)?:\s*(?:fatal )?error`)
	if m := re.FindStringSubmatch(msg); m != nil {
		var n int
		fmt.Sscan(m[1], &n)
		return n
	}
	re = regexp.MustCompile(regexp.QuoteMeta(label) + `:(\d+)`)
	if m := re.FindStringSubmatch(msg); m != nil {
		var n int
		fmt.Sscan(m[1], &n)
		return n
	}
	return 0
}

func (cToolchain) disassemble(ctx context.Context, binary string) (map[string]asm.Func, string, error) {
	path, err := exec.LookPath("objdump")
	if err != nil {
		return nil, "", &Error{Stage: "toolchain", Message: "objdump is not on PATH: install the Debian package binutils (apt-get install binutils)"}
	}
	out, err := procs.OutputProc(ctx, command("", path, "-d", "--no-show-raw-insn", binary))
	if err != nil && ctx.Err() != nil {
		return nil, "", ctx.Err()
	}
	if err != nil {
		return nil, "", &Error{Stage: "disassemble", Message: fmt.Sprintf("objdump -d failed: %v", err)}
	}
	funcs, err := asm.All(bytes.NewReader(out), asm.GNU)
	return funcs, "objdump -d --no-show-raw-insn", err
}

// command is a tool's command line with the C locale, so that tool output
// has plain ASCII quotes and English words the parsers expect; it is run
// with procs.RunProc or procs.OutputProc, which account for every process it starts.
func command(dir, path string, args ...string) *exec.Cmd {
	cmd := exec.Command(path, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LC_ALL=C", "LANG=C")
	return cmd
}
