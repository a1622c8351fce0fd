package harness

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strconv"
	"strings"

	"github.com/benchbook/benchbook/internal/procs"

	"github.com/benchbook/benchbook/internal/asm"
)

// gotestToolchain builds a %%gotest cell: ordinary func BenchmarkXxx(b
// *testing.B) functions, compiled with go test -c. The cell becomes the
// file cell_test.go of the generated module's root package (package main
// unless the cell names another), and benchbook adds bbmain_test.go beside
// it: a TestMain that, when the binary's first argument is run or list (how
// the protocol starts a kernel), hands the variants to the harness driver
// (bench.Main) instead of calling m.Run. Started any other way the binary is
// an ordinary test binary (-test.bench=. works).
//
// One pass of a variant is one iteration (b.N = 1); a batch of k passes is
// one call of the benchmark with b.N = k, through testing.Benchmark with
// -test.benchtime=kx, so b.ResetTimer, b.StopTimer and b.StartTimer are
// honoured and the sample is testing's own measured time. The driver's
// calibration picks k as for every kernel (a sample of at least 100 clock
// reads) and the result records it as the variant's batch. The cold pass is
// the benchmark's first call, with b.N = 1.
type gotestToolchain struct{ goToolchain }

func init() { keyEnv["gotest"] = keyEnv["go"] }

// gotestPackage is the package path of the cell in the generated module:
// its root, so the symbols of the cell are bbkernel.F.
const gotestPackage = goModule

// gotestSource is a %%gotest cell made into a compilable test file: the
// package clause, the import of testing and of the harness (when
// bench.Sink, bench.Checksum, bench.Barrier or bench.Now is used) added where
// missing, with //line directives so every position the
// compiler reports is a cell line.
func gotestSource(spec Spec) (src, pkg string, err error) {
	code := spec.Code
	pkgLine, pkgName := packageClause(code)
	if pkgLine != 0 && (pkgName == "" || strings.HasSuffix(pkgName, "_test")) {
		return "", "", &Error{Stage: "source", Line: spec.Line + pkgLine - 1, Message: fmt.Sprintf(
			"a %%%%gotest kernel is one package, not the external test package %s: write package main or leave the package clause out", pkgName)}
	}
	var imps []string
	// Only the harness's own names: a benchmark may call its *testing.B bench.
	if regexp.MustCompile(`\bbench\s*\.\s*(Sink|Checksum|Barrier|Now)\b`).MatchString(code) {
		imps = append(imps, fmt.Sprintf("import bench %q", goModule+"/bench"))
	}
	if !importsTesting(code, pkgLine) {
		imps = append(imps, `import "testing"`)
	}
	imp := strings.Join(imps, "; ")
	if pkgLine == 0 {
		pkgName = "main"
	}
	return withImports(code, pkgLine, imp, spec), pkgName, nil
}

// importsTesting reports whether the cell imports "testing" itself.
func importsTesting(code string, pkgLine int) bool {
	src := code
	if pkgLine == 0 {
		src = "package main\n" + code
	}
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.ImportsOnly)
	if err != nil || f == nil {
		return strings.Contains(code, `"testing"`)
	}
	for _, is := range f.Imports {
		if p, _ := strconv.Unquote(is.Path.Value); p == "testing" {
			return true
		}
	}
	return false
}

// gotestVariantName turns BenchmarkSumLoop into sumLoop, as %%go turns
// BenchSumLoop into sumLoop; Benchmark_x is _x.
func gotestVariantName(fn string) string {
	return variantName("Bench" + strings.TrimPrefix(fn, "Benchmark"))
}

func (gotestToolchain) prepare(spec Spec, dir string) ([]Variant, bool, error) {
	src, pkg, err := gotestSource(spec)
	if err != nil {
		return nil, false, err
	}
	fset, file, err := parseCell("cell_test.go", src)
	if err != nil {
		return nil, false, err
	}
	variants, setup, err := gotestVariants(fset, file, spec)
	if err != nil {
		return nil, false, err
	}
	return variants, setup, writeModule(dir, map[string]string{"cell_test.go": src, "bbmain_test.go": gotestMain(pkg, variants, setup)})
}

// gotestVariants finds func BenchmarkXxx(b *testing.B) and func Setup() in
// the cell. Testing's rule for a benchmark name applies: after Benchmark
// comes nothing, or a character that is not a lower-case letter.
func gotestVariants(fset *token.FileSet, file *ast.File, spec Spec) ([]Variant, bool, error) {
	var vs variantSet
	setup := false
	for _, d := range file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil {
			continue
		}
		name, line := fd.Name.Name, fset.Position(fd.Pos()).Line
		switch {
		case name == "TestMain":
			return nil, false, &Error{Stage: "source", Line: line, Message: "a %%gotest kernel must not define TestMain: the harness does"}
		case name == "Setup":
			if fd.Type.Params.NumFields() != 0 || fd.Type.Results.NumFields() != 0 || fd.Type.TypeParams != nil {
				return nil, false, &Error{Stage: "source", Line: line, Message: "Setup must be func Setup() with no arguments and no results"}
			}
			setup = true
		case isBenchmarkName(name):
			param, ok := benchmarkParam(fd)
			if !ok {
				return nil, false, &Error{Stage: "source", Line: line, Message: fmt.Sprintf(
					"%s must be func %s(b *testing.B) with no results to be a variant", name, name)}
			}
			if at := callsRun(fset, fd, param); at != 0 {
				return nil, false, &Error{Stage: "source", Line: at, Message: fmt.Sprintf(
					"%s calls %s.Run: sub-benchmarks are not supported by %%%%gotest; write each one as a BenchmarkXxx of its own", name, param)}
			}
			if err := vs.add(gotestVariantName(name), line, gotestPackage+"."+name); err != nil {
				return nil, false, err
			}
		}
	}
	variants, err := vs.done(spec.Name, "func BenchmarkName(b *testing.B) { for i := 0; i < b.N; i++ { ... } }")
	return variants, setup, err
}

// isBenchmarkName is testing's isTest(name, "Benchmark").
func isBenchmarkName(name string) bool {
	rest, ok := strings.CutPrefix(name, "Benchmark")
	if !ok {
		return false
	}
	if rest == "" {
		return false // Benchmark alone would be a variant without a name
	}
	r := rest[0]
	return !('a' <= r && r <= 'z')
}

// benchmarkParam returns the name of the *testing.B parameter of a
// benchmark written func F(b *testing.B) (any name, any import alias).
func benchmarkParam(fd *ast.FuncDecl) (string, bool) {
	if fd.Type.TypeParams != nil || fd.Type.Results.NumFields() != 0 || fd.Type.Params.NumFields() != 1 {
		return "", false
	}
	p := fd.Type.Params.List[0]
	star, ok := p.Type.(*ast.StarExpr)
	if !ok {
		return "", false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "B" {
		return "", false
	}
	if len(p.Names) == 0 || p.Names[0].Name == "_" {
		return "_", true
	}
	return p.Names[0].Name, true
}

// callsRun returns the cell line of the first param.Run(...) call in fd,
// or 0.
func callsRun(fset *token.FileSet, fd *ast.FuncDecl, param string) int {
	line := 0
	if fd.Body == nil || param == "_" {
		return 0
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if line != 0 {
			return false
		}
		if call, ok := n.(*ast.CallExpr); ok {
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Run" {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == param {
					line = fset.Position(call.Pos()).Line
				}
			}
		}
		return true
	})
	return line
}

// gotestMain generates the TestMain that runs the driver. A pass of k
// iterations sets -test.benchtime=kx and calls testing.Benchmark: testing
// calls the benchmark once with b.N = 1 and, for k > 1, again with b.N = k
// (after a runtime.GC each time, outside the timing), and its result is the
// time its timer measured in the last call. A benchmark that failed, was
// skipped or ran sub-benchmarks has no result (N = 0): the process stops
// with a message.
func gotestMain(pkg string, variants []Variant, setup bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, `// Code generated by benchbook. DO NOT EDIT.

package %s

import (
	bbflag "flag"
	bbfmt "fmt"
	bbos "os"
	bbstrconv "strconv"
	bbtesting "testing"

	bbbench %q
)

func bbPass(name string, f func(*bbtesting.B), k int64) int64 {
	if err := bbflag.Set("test.benchtime", bbstrconv.FormatInt(k, 10)+"x"); err != nil {
		bbfmt.Fprintf(bbos.Stderr, "benchbook: -test.benchtime=%%dx: %%v\n", k, err)
		bbos.Exit(2)
	}
	r := bbtesting.Benchmark(f)
	if r.N == 0 {
		bbfmt.Fprintf(bbos.Stderr, "benchbook: %%s gave no result: it failed (b.Error, b.Fatal), was skipped (b.Skip) or ran sub-benchmarks (b.Run)\n", name)
		bbos.Exit(2)
	}
	if int64(r.N) != k {
		bbfmt.Fprintf(bbos.Stderr, "benchbook: %%s ran %%d iterations, not the %%d asked for\n", name, r.N, k)
		bbos.Exit(2)
	}
	return r.T.Nanoseconds()
}

func TestMain(m *bbtesting.M) {
	if len(bbos.Args) < 2 || (bbos.Args[1] != "run" && bbos.Args[1] != "list") {
		bbos.Exit(m.Run())
	}
	bbbench.Main([]bbbench.Variant{
`, pkg, goModule+"/bench")
	for _, v := range variants {
		fn := strings.TrimPrefix(v.Symbol, gotestPackage+".")
		fmt.Fprintf(&b, "\t\t{Name: %q, Line: %d,\n\t\t\tOnce:  func() int64 { return bbPass(%[3]q, %[3]s, 1) },\n\t\t\tBatch: func(k int64) int64 { return bbPass(%[3]q, %[3]s, k) }},\n",
			v.Name, v.Line, fn)
	}
	setupArg := "nil"
	if setup {
		setupArg = "Setup"
	}
	fmt.Fprintf(&b, "\t}, %s)\n}\n", setupArg)
	return b.String()
}

func (gotestToolchain) compile(ctx context.Context, spec Spec, flags []string, dir, out string) (string, error) {
	return goCompile(ctx, spec, []string{"test", "-c"}, flags, dir, out)
}

func (gotestToolchain) disassemble(ctx context.Context, binary string) (map[string]asm.Func, string, error) {
	path, err := goCommand()
	if err != nil {
		return nil, "", err
	}
	out, err := procs.OutputProc(ctx, command("", path, "tool", "objdump", "-s", `^`+regexp.QuoteMeta(gotestPackage)+`\.`, binary))
	if err != nil && ctx.Err() != nil {
		return nil, "", ctx.Err()
	}
	if err != nil {
		return nil, "", &Error{Stage: "disassemble", Message: fmt.Sprintf("go tool objdump failed: %v", err)}
	}
	funcs, err := asm.All(bytes.NewReader(out), asm.Go)
	return funcs, "go tool objdump", err
}

// gotestNotAnalysed is the finding of a benchmark whose b.N loop the
// analysis cannot find.
const gotestNotAnalysed = "the timed region is testing's own (b.N iterations between its timer's reads, ResetTimer/StopTimer honoured): " +
	"the assembly shown is the Benchmark function's; no loop was found in it to analyse, so benchbook's analysis of dead code is not applied"

// analyser is a toolchain whose kernels' timed code is not a region
// between two clock reads: it analyses its disassembly itself.
type analyser interface {
	analyse(funcs map[string]asm.Func, k *Kernel) error
}

// analyse gives each variant the disassembly of its Benchmark function and
// of the functions of the cell it calls, and what its b.N loop holds
// (analyseBenchmark). A batch of k passes is the same function with b.N = k.
func (gotestToolchain) analyse(funcs map[string]asm.Func, k *Kernel) error {
	for i := range k.Variants {
		v := &k.Variants[i]
		f, ok := funcs[v.Symbol]
		if !ok {
			return &Error{Stage: "disassemble", Message: fmt.Sprintf("benchmark function %s of variant %s not found in the binary", v.Symbol, v.Name), Line: v.Line}
		}
		v.Asm, v.Func = f.Text(), f
		v.Analysis, v.Finding = asm.Analysis{Function: f.Name}, gotestNotAnalysed
		if a, ok := analyseBenchmark(f); ok {
			v.Analysis, v.Dead, v.Hollow, v.Finding = a, a.Dead, a.Hollow, a.Finding
		}
		seen := map[string]bool{v.Symbol: true}
		for _, in := range f.Insts {
			if c := in.Sym; c != "" && !seen[c] && strings.HasPrefix(c, gotestPackage+".") && isCallInst(in) {
				seen[c] = true
				if cf, ok := funcs[c]; ok {
					v.Callees = append(v.Callees, cf.Text())
				}
			}
		}
		v.BatchFinding = "a batch of k passes is one call of the same function with b.N = k"
	}
	return nil
}

// analyseBenchmark applies asm.AnalyzeBatch to a Benchmark function: the
// function up to its last RET (after it comes the stack-growth stub) stands
// for the timed region, and its outermost loop for the loop over k, the b.N
// loop (or b.Loop's). What is left is judged as a batch's body is: dead when
// the b.N loop holds nothing, hollow when its inner loops only count.
// Setup before the loop, b.ResetTimer and other calls make the function
// live: the analysis errs towards live, never towards dead.
func analyseBenchmark(f asm.Func) (asm.Analysis, bool) {
	last := -1
	for i, in := range f.Insts {
		if in.Mnemonic == "ret" {
			last = i
		}
	}
	if last < 1 {
		return asm.Analysis{}, false
	}
	clock := func(addr uint64) asm.Inst {
		return asm.Inst{Addr: addr, Mnemonic: "call", Sym: "runtime.nanotime", Text: "(testing's timer)"}
	}
	body := f.Insts[:last]
	insts := append(append([]asm.Inst{clock(body[0].Addr)}, body...), clock(f.Insts[last].Addr))
	a, err := asm.AnalyzeBatch(asm.Func{Name: f.Name, Insts: insts}, false)
	if err != nil || a.Batch == nil {
		return asm.Analysis{}, false
	}
	r := strings.NewReplacer(
		"between the two clock reads the batch loop repeats the pass k times", "in the function the b.N loop repeats the body b.N times",
		"a batch of this variant times", "this benchmark times",
		"outside the batch loop, computed once for all k passes", "outside the b.N loop (setup, or work computed once for all b.N iterations)")
	a.Finding = r.Replace(a.Finding) + " (the b.N loop is taken to be the function's outermost loop; testing's timer reads are around the call)"
	return a, true
}

func isCallInst(in asm.Inst) bool {
	m := strings.ToUpper(in.Mnemonic)
	return strings.HasPrefix(m, "CALL") || m == "BL"
}

// deps are those of a %%go build, the test files included.
func (gotestToolchain) deps(ctx context.Context, _ Spec, flags []string, dir string) ([]string, error) {
	return goListDeps(ctx, []string{"-test"}, flags, dir)
}
