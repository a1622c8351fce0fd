package harness

import (
	"fmt"
	"go/ast"
	"go/parser"
	"regexp"
	"strconv"
	"strings"
)

// benchOpsRE is BENCH_OPS(name, n) of a C cell (latency.h).
var benchOpsRE = regexp.MustCompile(`\bBENCH_OPS\s*\(\s*([^,)\s]*)\s*,\s*([^)]*)\)`)

// benchOps finds the BENCH_OPS variants of one line of a C cell, as
// benchRE's matches (the name in [1]); an n that is an integer literal
// below 1 is refused here with the cell's line (any other n is checked by
// the compiler: latency.h's _Static_assert).
func benchOps(code string, line int) ([][]string, error) {
	var out [][]string
	for _, m := range benchOpsRE.FindAllStringSubmatch(code, -1) {
		n := strings.TrimSpace(m[2])
		if v, err := strconv.ParseInt(n, 0, 64); err == nil && v <= 0 || strings.HasPrefix(n, "-") {
			return nil, &Error{Stage: "source", Line: line, Message: fmt.Sprintf(
				"BENCH_OPS(%s, %s): the number of operations per pass must be at least 1", m[1], n)}
		}
		if n == "" {
			return nil, &Error{Stage: "source", Line: line, Message: fmt.Sprintf(
				"BENCH_OPS(%s, n): n, the number of operations per pass, is missing", m[1])}
		}
		out = append(out, []string{m[0], m[1], n})
	}
	return out, nil
}

// markOps marks the variant just added as BENCH_OPS when m is a match of
// benchOps (it carries n).
func markOps(vs *variantSet, m []string) {
	if len(m) == 3 && len(vs.list) > 0 {
		vs.list[len(vs.list)-1].Ops = m[2]
	}
}

// goOpsRE is the directive that declares a Go ops variant's operations
// per pass, on the line right above its func.
var goOpsRE = regexp.MustCompile(`(?m)^[ \t]*//bench:ops[ \t]*(.*?)[ \t]*\n[ \t]*func[ \t]+(Bench\w+)\b`)

// goOpsDirectives maps each func BenchXxx of a %%go cell to the n of the
// //bench:ops n line right above it.
func goOpsDirectives(code string) map[string]string {
	out := map[string]string{}
	for _, m := range goOpsRE.FindAllStringSubmatch(code, -1) {
		out[m[2]] = m[1]
	}
	return out
}

// isOpsFunc reports whether fd is func BenchXxx(op *bench.Op).
func isOpsFunc(fd *ast.FuncDecl) bool {
	if fd.Type.TypeParams != nil || fd.Type.Results.NumFields() != 0 || fd.Type.Params.NumFields() != 1 {
		return false
	}
	star, ok := fd.Type.Params.List[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "bench" && sel.Sel.Name == "Op"
}

// addGoOps adds func name(op *bench.Op) as an ops variant; its //bench:ops
// n must be there and must not be a literal below 1.
func addGoOps(vs *variantSet, name string, line int, ops map[string]string) error {
	n, ok := ops[name]
	if !ok || n == "" {
		return &Error{Stage: "source", Line: line, Message: fmt.Sprintf(
			"func %s(op *bench.Op) needs the number of operations per pass on the line above it: //bench:ops N", name)}
	}
	if _, err := parser.ParseExpr(n); err != nil {
		return &Error{Stage: "source", Line: line - 1, Message: fmt.Sprintf("//bench:ops %s: not a Go expression: %v", n, err)}
	}
	if v, err := strconv.ParseInt(n, 0, 64); err == nil && v <= 0 || strings.HasPrefix(n, "-") {
		return &Error{Stage: "source", Line: line - 1, Message: fmt.Sprintf(
			"//bench:ops %s of %s: the number of operations per pass must be at least 1", n, name)}
	}
	if err := vs.add(variantName(name), line, "main.bbTime_"+name); err != nil {
		return err
	}
	vs.list[len(vs.list)-1].Ops = n
	return nil
}

// goOpsTimed is the timed and batch functions of an ops variant: as for
// func BenchXxx(), with the process's Op handed in.
func goOpsTimed(fn string) string {
	return fmt.Sprintf("//go:noinline\nfunc bbTime_%[1]s() int64 {\n\top := bench.CurrentOp()\n\tt0 := bench.Now()\n\t%[1]s(op)\n\treturn bench.Now() - t0\n}\n\n"+
		"//go:noinline\nfunc bbBatch_%[1]s(k int64) int64 {\n\top := bench.CurrentOp()\n\tt0 := bench.Now()\n\tfor i := int64(0); i < k; i++ {\n\t\t%[1]s(op)\n\t\tbench.Barrier()\n\t}\n\treturn bench.Now() - t0\n}\n\n", fn)
}

// goOpsField is the Ops field of an ops variant in the generated main.
func goOpsField(v Variant) string {
	if v.Ops == "" {
		return ""
	}
	return ", Ops: int64(" + v.Ops + ")"
}

// opsFinding says, in the finding of an ops variant, that the dead-code
// check does not apply: the counter reads and the histogram updates around
// each operation are work the compiler must keep, so the region is never
// empty, even when the operation itself was deleted.
func opsFinding(v *Variant) {
	if v.Ops == "" {
		return
	}
	v.Finding = OpsFinding(v.Ops, v.Finding)
}

// OpsFinding is the finding of a BENCH_OPS variant of ops operations per
// pass whose region the analysis described as finding.
func OpsFinding(ops, finding string) string {
	return opsPrefix + ops + " operations per pass): the dead-code check does not apply, since the counter reads and histogram updates around each operation are always in the region; read the operation between them in the assembly. " + finding
}

const opsPrefix = "BENCH_OPS ("

// OpsOf is the ops of a finding OpsFinding wrote, and whether it is one.
func OpsOf(finding string) (string, bool) {
	rest, ok := strings.CutPrefix(finding, opsPrefix)
	if !ok {
		return "", false
	}
	ops, _, ok := strings.Cut(rest, " operations per pass)")
	return ops, ok
}
