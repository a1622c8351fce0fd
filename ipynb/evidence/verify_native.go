package evidence

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/benchbook/benchbook/internal/asm"
	"github.com/benchbook/benchbook/internal/harness"
	"github.com/benchbook/benchbook/internal/protocol"
	"github.com/benchbook/benchbook/ipynb"
	"github.com/benchbook/benchbook/stdlib/display"
	"github.com/benchbook/benchbook/stdlib/report"
)

// nativeMagics are the magics of cells whose body is compiled natively.
var nativeMagics = map[string]bool{"%%c": true, "%%go": true, "%%gotest": true}

// build is a native cell's build entry, found in a notebook.
type build struct {
	Cell, Output int
	Magic, Name  string // "%%c", "seed"
	Body         string // the cell after its magic line: what was compiled
	Entry        report.BuildEntry
	Text, HTML   string
	err          error // the entry could not be read
}

// Where is "cell C (%%c seed)".
func (b build) Where() string { return fmt.Sprintf("cell %d (%s %s)", b.Cell, b.Magic, b.Name) }

// nativeCell splits a cell into its native magic, kernel name and body, as
// cells.ParseMagic does; ok is false for any other cell.
func nativeCell(c *ipynb.Cell) (magic, name, body string, ok bool) {
	if c.Type != ipynb.CodeCell {
		return "", "", "", false
	}
	first, body, _ := strings.Cut(c.Source, "\n")
	words := strings.Fields(first)
	if len(words) < 2 || !nativeMagics[words[0]] {
		return "", "", "", false
	}
	return words[0], words[1], body, true
}

// builds finds every build entry of the notebook's native cells, in order.
func builds(nb *ipynb.Notebook) []build {
	var out []build
	for i, c := range nb.Cells {
		magic, name, body, ok := nativeCell(c)
		if !ok {
			continue
		}
		for j, o := range c.Outputs {
			v, ok := o.Data[display.MIMEBuild]
			if !ok {
				continue
			}
			b := build{Cell: i, Output: j, Magic: magic, Name: name, Body: body,
				Text: ipynb.Text(o.Data[display.MIMEText]), HTML: ipynb.Text(o.Data[display.MIMEHTML])}
			raw, err := json.Marshal(v)
			if err == nil {
				err = json.Unmarshal(raw, &b.Entry)
			}
			b.err = err
			out = append(out, b)
		}
	}
	return out
}

// checkBuild holds a native cell's build entry to the cell and to what the
// cell shows: the cell's body hashes to the entry's source_sha256 (an edit
// of the source after it was built is caught), each variant's block of the
// text/plain and each instruction of the HTML are the entry's assembly,
// and dead, hollow and the finding are what the assembly gives again
// (asm.Analyze; %%gotest's analysis is its own and is not redone).
func checkBuild(b build) []string {
	if b.err != nil {
		return []string{fmt.Sprintf("output %d: the build entry cannot be read: %v", b.Output, b.err)}
	}
	var problems []string
	k := b.Entry.Kernel
	if k.Name != b.Name {
		problems = append(problems, fmt.Sprintf("the build entry is of kernel %q, the cell builds %q", k.Name, b.Name))
	}
	if got := sha256Hex(b.Body); got != k.SourceSHA256 {
		problems = append(problems, fmt.Sprintf("the cell's source hashes to %s, the build's source_sha256 is %s: the source was edited after it was built",
			short(got), short(k.SourceSHA256)))
	}
	for _, v := range b.Entry.Variants {
		name := "variant " + v.Name
		if !strings.Contains(b.Text, report.AsmText(v)) {
			problems = append(problems, fmt.Sprintf("output %d text/plain: %s's assembly, verdict or finding is not the build entry's", b.Output, v.Name))
		}
		f, err := asm.ParseText(v.Asm)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: its assembly cannot be read: %v", name, err))
			continue
		}
		for _, in := range f.Insts {
			if !strings.Contains(b.HTML, report.AsmLineHTML(in)) {
				problems = append(problems, fmt.Sprintf("output %d text/html: %s shows no instruction %q at %x, which the build entry holds", b.Output, v.Name, in.Text, in.Addr))
				break
			}
		}
		if b.Magic != "%%gotest" {
			problems = append(problems, rederive(name, v.Asm, v.Dead, v.Hollow, v.Finding)...)
		}
	}
	return problems
}

// rederive analyses a stored assembly again (asm.Analyze) and names what
// differs from the stored dead, hollow and finding. An assembly without two
// clock reads is left to the finding the build wrote.
func rederive(name, text string, dead, hollow bool, finding string) []string {
	if text == "" {
		return nil
	}
	f, err := asm.ParseText(text)
	if err != nil {
		return []string{fmt.Sprintf("%s: its assembly cannot be read: %v", name, err)}
	}
	a, err := asm.Analyze(f, false)
	if err != nil {
		return nil
	}
	want := a.Finding
	if ops, ok := harness.OpsOf(finding); ok {
		want = harness.OpsFinding(ops, a.Finding)
	}
	switch {
	case a.Dead != dead || a.Hollow != hollow:
		return []string{fmt.Sprintf("%s: dead %t, hollow %t, but its assembly gives dead %t, hollow %t", name, dead, hollow, a.Dead, a.Hollow)}
	case want != finding:
		return []string{fmt.Sprintf("%s: finding is %s, its assembly gives %s", name, excerpt(finding, want), excerpt(want, finding))}
	}
	return nil
}

// checkAssembly holds a result's assembly to the build of its kernel in the
// notebook (the build with the result's source and binary digests, the
// last before the result's cell when there are several) and re-derives
// each variant's dead and hollow from it. A notebook without a build of the
// kernel leaves the result's assembly checked only against itself: note
// says so.
func checkAssembly(bs []build, f ipynb.Found, r *protocol.Result) (note string, problems []string) {
	var named []build
	match := -1
	for _, b := range bs {
		if b.err == nil && b.Entry.Kernel.Name == r.Kernel.Name {
			named = append(named, b)
			if b.Entry.Kernel.SourceSHA256 == r.Kernel.SourceSHA256 && b.Entry.Kernel.BinarySHA256 == r.Kernel.BinarySHA256 &&
				(match < 0 || b.Cell < f.Cell) {
				match = len(named) - 1
			}
		}
	}
	for _, v := range r.Variants {
		name := "variant " + v.Name
		problems = append(problems, rederive(name, v.Asm, v.Dead, v.Hollow, v.Finding)...)
		if v.BatchAsm != "" {
			f, err := asm.ParseText(v.BatchAsm)
			if err == nil {
				if a, err := asm.AnalyzeBatch(f, false); err == nil && (a.Dead != v.BatchDead || a.Hollow != v.BatchHollow) {
					problems = append(problems, fmt.Sprintf("%s: batch_dead %t, batch_hollow %t, but its batch assembly gives %t, %t", name, v.BatchDead, v.BatchHollow, a.Dead, a.Hollow))
				}
			}
		}
	}
	if len(named) == 0 {
		return fmt.Sprintf("assembly not checked against a build (no build of %s in the notebook)", r.Kernel.Name), problems
	}
	if match < 0 && r.Sweep != nil {
		return "assembly of this point not checked against a build (a sweep builds each point in its %bench cell and shows none)", problems
	}
	if match < 0 && r.Control != nil && r.Control.Kind == protocol.ControlPad {
		for _, b := range named {
			if b.Entry.Kernel.SourceSHA256 == r.Kernel.SourceSHA256 {
				return fmt.Sprintf("assembly of the padded build not checked against a build (pad=%s builds it in its %%bench cell and shows none; its source is the build's in cell %d)",
					r.Control.Value, b.Cell), problems
			}
		}
	}
	if match < 0 {
		cells := make([]string, len(named))
		for i, b := range named {
			cells[i] = fmt.Sprint(b.Cell)
		}
		return "", append(problems, fmt.Sprintf("kernel %s: no build of it in the notebook (cells %s) has source %s and binary %s",
			r.Kernel.Name, strings.Join(cells, ", "), short(r.Kernel.SourceSHA256), short(r.Kernel.BinarySHA256)))
	}
	b := named[match]
	for _, v := range r.Variants {
		var e *report.VariantEntry
		for i := range b.Entry.Variants {
			if b.Entry.Variants[i].Name == v.Name {
				e = &b.Entry.Variants[i]
			}
		}
		switch {
		case e == nil:
			problems = append(problems, fmt.Sprintf("variant %s: the build in cell %d has no such variant", v.Name, b.Cell))
		case e.Asm != v.Asm:
			problems = append(problems, fmt.Sprintf("variant %s: its assembly is not the build's in cell %d (%s, the build has %s)",
				v.Name, b.Cell, excerpt(v.Asm, e.Asm), excerpt(e.Asm, v.Asm)))
		case v.BatchAsm != "" && e.BatchAsm != v.BatchAsm:
			problems = append(problems, fmt.Sprintf("variant %s: its batch assembly is not the build's in cell %d", v.Name, b.Cell))
		}
	}
	return fmt.Sprintf("assembly of the build in cell %d", b.Cell), problems
}

func sha256Hex(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// short is the first 12 hex digits of a digest.
func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
