package harness

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/benchbook/benchbook/internal/procs"

	"github.com/benchbook/benchbook/internal/asm"
)

type goToolchain struct{}

// goModule is the generated module's path; the harness is its package bench.
const goModule = "bbkernel"

func goCommand() (string, error) {
	path, err := exec.LookPath("go")
	if err != nil {
		return "", &Error{Stage: "toolchain", Message: "the go command is not on PATH: scripts/setup.sh installs Go 1.26 into /usr/local/go (Debian 12's golang-go is too old); put /usr/local/go/bin on PATH, or run benchbook install again from a shell where go is on PATH so the kernelspec records it"}
	}
	return path, nil
}

func (goToolchain) identity(ctx context.Context) (string, string, error) {
	path, err := goCommand()
	if err != nil {
		return "", "", err
	}
	out, err := procs.OutputProc(ctx, command("", path, "version"))
	if err != nil && ctx.Err() != nil {
		return "", "", ctx.Err()
	}
	if err != nil {
		return "", "", &Error{Stage: "toolchain", Message: fmt.Sprintf("go version failed: %v", err)}
	}
	return strings.TrimSpace(string(out)), path, nil
}

// goSource is a %%go cell made into a compilable file: the package clause and
// the import of the harness added where missing, with //line directives so
// every position the compiler reports is a cell line.
func goSource(spec Spec) (string, error) {
	code := spec.Code
	pkgLine, pkgName := packageClause(code)
	usesBench := regexp.MustCompile(`\bbench\s*\.`).MatchString(code)
	imp := ""
	if usesBench {
		imp = fmt.Sprintf("import bench %q", goModule+"/bench")
	}
	if pkgLine != 0 && pkgName != "main" {
		return "", &Error{Stage: "source", Line: spec.Line + pkgLine - 1, Message: fmt.Sprintf(
			"a %%%%go kernel is package main, not package %s (the package clause may be left out)", pkgName)}
	}
	return withImports(code, pkgLine, imp, spec), nil
}

// withImports puts the import line imp after the cell's package clause
// (at line pkgLine, 0 when it has none: then package main comes first),
// with //line directives so that every line keeps its cell line number.
func withImports(code string, pkgLine int, imp string, spec Spec) string {
	directive := func(line int) string { return fmt.Sprintf("//line %s:%d\n", spec.Label, line) }
	if pkgLine == 0 {
		return "package main; " + imp + "\n" + directive(spec.Line) + code + "\n"
	}
	lines := strings.SplitAfter(code, "\n")
	var b strings.Builder
	b.WriteString(directive(spec.Line))
	for _, l := range lines[:pkgLine] {
		b.WriteString(l)
	}
	if !strings.HasSuffix(b.String(), "\n") {
		b.WriteString("\n")
	}
	b.WriteString(imp + "\n")
	b.WriteString(directive(spec.Line + pkgLine))
	for _, l := range lines[pkgLine:] {
		b.WriteString(l)
	}
	b.WriteString("\n")
	return b.String()
}

// packageClause returns the 1-based line of the package clause and its name,
// or 0 when the source has none.
func packageClause(code string) (int, string) {
	var s scanner.Scanner
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(code))
	s.Init(file, []byte(code), nil, scanner.ScanComments)
	for {
		pos, tok, _ := s.Scan()
		switch tok {
		case token.COMMENT:
			continue
		case token.PACKAGE:
			_, tok2, lit := s.Scan()
			if tok2 == token.IDENT {
				return fset.Position(pos).Line, lit
			}
			return fset.Position(pos).Line, ""
		}
		return 0, ""
	}
}

// variantName turns BenchSumFloat into sumFloat.
func variantName(fn string) string {
	rest := strings.TrimPrefix(fn, "Bench")
	r, size := utf8.DecodeRuneInString(rest)
	return string(unicode.ToLower(r)) + rest[size:]
}

func (goToolchain) prepare(spec Spec, dir string) ([]Variant, bool, error) {
	src, err := goSource(spec)
	if err != nil {
		return nil, false, err
	}
	fset, file, err := parseCell("cell.go", src)
	if err != nil {
		return nil, false, err
	}
	variants, setup, err := goVariants(fset, file, spec)
	if err != nil {
		return nil, false, err
	}
	return variants, setup, writeModule(dir, map[string]string{"cell.go": src, "bbmain.go": goMain(variants, setup)})
}

// parseCell parses a Go cell's generated source; a syntax error is a
// compile error at its line.
func parseCell(name, src string) (*token.FileSet, *ast.File, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		line := 0
		if list, ok := err.(scanner.ErrorList); ok && len(list) > 0 {
			line = list[0].Pos.Line
		}
		return nil, nil, &Error{Stage: "compile", Line: line, Message: err.Error()}
	}
	return fset, file, nil
}

// writeModule writes the generated module of a Go cell into dir: the
// harness package, go.mod and files.
func writeModule(dir string, files map[string]string) error {
	if err := writeTree("go", dir); err != nil {
		return err
	}
	files["go.mod"] = fmt.Sprintf("module %s\n\ngo %s\n", goModule, goLangVersion())
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			return err
		}
	}
	return nil
}

// goVariants finds func BenchXxx() and func Setup() in the cell.
func goVariants(fset *token.FileSet, file *ast.File, spec Spec) ([]Variant, bool, error) {
	var vs variantSet
	setup := false
	ops := goOpsDirectives(spec.Code)
	for _, d := range file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil {
			continue
		}
		name, line := fd.Name.Name, fset.Position(fd.Pos()).Line
		noArgs := fd.Type.Params.NumFields() == 0 && fd.Type.Results.NumFields() == 0 && fd.Type.TypeParams == nil
		switch {
		case name == "main":
			return nil, false, &Error{Stage: "source", Line: line, Message: "a %%go kernel must not define main: the harness does"}
		case name == "Setup":
			if !noArgs {
				return nil, false, &Error{Stage: "source", Line: line, Message: "Setup must be func Setup() with no arguments and no results"}
			}
			setup = true
		case strings.HasPrefix(name, "Bench") && len(name) > len("Bench") && isOpsFunc(fd):
			if err := addGoOps(&vs, name, line, ops); err != nil {
				return nil, false, err
			}
		case strings.HasPrefix(name, "Bench") && len(name) > len("Bench"):
			if !noArgs {
				return nil, false, &Error{Stage: "source", Line: line, Message: fmt.Sprintf(
					"%s must be func %s() with no arguments and no results to be a variant", name, name)}
			}
			if err := vs.add(variantName(name), line, "main.bbTime_"+name); err != nil {
				return nil, false, err
			}
		}
	}
	variants, err := vs.done(spec.Name, "func BenchName() { ... }")
	return variants, setup, err
}

// goMain generates the timed functions and main: each variant's func is
// called between exactly two clock reads; the compiler may inline it.
func goMain(variants []Variant, setup bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// Code generated by benchbook. DO NOT EDIT.\n\npackage main\n\nimport bench %q\n\n", goModule+"/bench")
	for _, v := range variants {
		fn := strings.TrimPrefix(v.Symbol, "main.bbTime_")
		if v.Ops != "" {
			b.WriteString(goOpsTimed(fn))
			continue
		}
		fmt.Fprintf(&b, "//go:noinline\nfunc bbTime_%[1]s() int64 {\n\tt0 := bench.Now()\n\t%[1]s()\n\treturn bench.Now() - t0\n}\n\n", fn)
		fmt.Fprintf(&b, "//go:noinline\nfunc bbBatch_%[1]s(k int64) int64 {\n\tt0 := bench.Now()\n\tfor i := int64(0); i < k; i++ {\n\t\t%[1]s()\n\t\tbench.Barrier()\n\t}\n\treturn bench.Now() - t0\n}\n\n", fn)
	}
	b.WriteString("func main() {\n\tbench.Main([]bench.Variant{\n")
	for _, v := range variants {
		fn := strings.TrimPrefix(v.Symbol, "main.bbTime_")
		fmt.Fprintf(&b, "\t\t{Name: %q, Line: %d, Once: bbTime_%s, Batch: bbBatch_%s%s},\n", v.Name, v.Line, fn, fn, goOpsField(v))
	}
	setupArg := "nil"
	if setup {
		setupArg = "Setup"
	}
	fmt.Fprintf(&b, "\t}, %s)\n}\n", setupArg)
	return b.String()
}

// goLangVersion is the go line of the generated go.mod: this toolchain's
// language version, so every language feature it has is available.
func goLangVersion() string {
	v := strings.TrimPrefix(runtime.Version(), "go")
	parts := strings.SplitN(v, ".", 3)
	if len(parts) >= 2 {
		return parts[0] + "." + strings.TrimFunc(parts[1], func(r rune) bool { return !unicode.IsDigit(r) })
	}
	return "1.22"
}

func goEnv() []string {
	env := []string{}
	for _, e := range os.Environ() {
		k, _, _ := strings.Cut(e, "=")
		switch k {
		case "GOFLAGS", "GOPROXY", "GOWORK", "GOTOOLCHAIN", "GO111MODULE", "CGO_ENABLED", "LC_ALL", "LANG":
			continue
		}
		env = append(env, e)
	}
	return append(env, "GOFLAGS=-mod=mod -buildvcs=false", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local",
		"GO111MODULE=on", "CGO_ENABLED=0", "LC_ALL=C", "LANG=C")
}

func (goToolchain) compile(ctx context.Context, spec Spec, flags []string, dir, out string) (string, error) {
	return goCompile(ctx, spec, []string{"build"}, flags, dir, out)
}

// goCompile runs `go SUBCOMMAND -o out flags .` in the generated module
// (go build for %%go, go test -c for %%gotest). go's work folders
// (GOTMPDIR) are made in the build folder, which is removed whatever
// happens, even when go is killed.
func goCompile(ctx context.Context, spec Spec, sub, flags []string, dir, out string) (string, error) {
	path, err := goCommand()
	if err != nil {
		return "", err
	}
	args := append(append(append([]string{}, sub...), "-o", out), flags...)
	args = append(args, ".")
	tmp := filepath.Join(dir, ".gotmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		return "", err
	}
	cmd := exec.Command(path, args...)
	cmd.Dir, cmd.Env = dir, append(goEnv(), "GOTMPDIR="+tmp)
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err = procs.RunProc(ctx, cmd)
	msg := tidyGoOutput(buf.String(), dir)
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		if strings.Contains(msg, "flag provided but not defined") || strings.Contains(msg, "unknown flag") {
			return "", &Error{Stage: "flags", Message: "go " + strings.Join(sub, " ") + " rejected the flags " + strings.Join(flags, " ") + ":\n" + msg}
		}
		return "", &Error{Stage: "compile", Line: firstGoErrorLine(msg, spec.Label), Message: msg}
	}
	return msg, nil
}

func tidyGoOutput(s, dir string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "# ") {
			continue // "# bbkernel": the generated module's name says nothing to the user
		}
		keep = append(keep, strings.ReplaceAll(l, dir+string(filepath.Separator), ""))
	}
	return strings.TrimSpace(strings.Join(keep, "\n"))
}

func firstGoErrorLine(msg, label string) int {
	re := regexp.MustCompile(regexp.QuoteMeta(label) + `:(\d+)`)
	if m := re.FindStringSubmatch(msg); m != nil {
		var n int
		fmt.Sscan(m[1], &n)
		return n
	}
	return 0
}

func (goToolchain) disassemble(ctx context.Context, binary string) (map[string]asm.Func, string, error) {
	path, err := goCommand()
	if err != nil {
		return nil, "", err
	}
	out, err := procs.OutputProc(ctx, command("", path, "tool", "objdump", "-s", `^main\.`, binary))
	if err != nil && ctx.Err() != nil {
		return nil, "", ctx.Err()
	}
	if err != nil {
		return nil, "", &Error{Stage: "disassemble", Message: fmt.Sprintf("go tool objdump failed: %v", err)}
	}
	funcs, err := asm.All(bytes.NewReader(out), asm.Go)
	return funcs, "go tool objdump", err
}

// goListTemplate prints every file of every package a build of the module
// compiles or reads (its sources, build-constrained-out files whose
// constraints were read, embedded files), and each module's go.mod and
// go.sum, one path a line.
const goListTemplate = `{{$d := .Dir}}` +
	`{{range .GoFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}{{range .CgoFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}` +
	`{{range .CFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}{{range .HFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}` +
	`{{range .SFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}{{range .SysoFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}` +
	`{{range .EmbedFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}{{range .IgnoredGoFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}` +
	`{{range .TestGoFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}{{range .XTestGoFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}` +
	`{{with .Module}}{{.GoMod}}{{"\n"}}{{.Dir}}/go.sum{{"\n"}}{{end}}`

// deps are the files of the packages the kernel's module imports, the
// standard library's included, as go list -deps names them with the
// build's flags.
func (goToolchain) deps(ctx context.Context, _ Spec, flags []string, dir string) ([]string, error) {
	return goListDeps(ctx, nil, flags, dir)
}

// goListDeps runs go list -deps (with extra, e.g. -test) in the generated
// module.
func goListDeps(ctx context.Context, extra, flags []string, dir string) ([]string, error) {
	path, err := goCommand()
	if err != nil {
		return nil, err
	}
	args := append(append(append([]string{"list", "-deps"}, extra...), "-f", goListTemplate), flags...)
	args = append(args, ".")
	cmd := exec.Command(path, args...)
	cmd.Dir, cmd.Env = dir, append(goEnv(), "GOTMPDIR="+filepath.Join(dir, ".gotmp"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := procs.OutputProc(ctx, cmd)
	if err != nil {
		return nil, fmt.Errorf("go list -deps: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n"), nil
}
