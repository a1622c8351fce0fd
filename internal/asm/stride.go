package asm

import (
	"bufio"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Stride is a memory access of an innermost loop of the timed region
// whose address moves by a constant each iteration: its base or index
// register is stepped by an immediate (add, sub or lea of the register
// into itself), times the index's scale.
type Stride struct {
	Bytes  int64  // how far the address moves per iteration (positive)
	Step   string // the instruction that steps the register, as printed
	Access string // the instruction whose memory operand it steps, as printed
}

// PowerOfTwo says whether the stride is a power of two of at least min bytes.
func (s Stride) PowerOfTwo(min int64) bool { return s.Bytes >= min && s.Bytes&(s.Bytes-1) == 0 }

var (
	attMemRE = regexp.MustCompile(`\((%?\w+)?(?:,\s*(%?\w+)(?:,\s*(\d))?)?\)`) // disp(%base,%index,scale)
	goMemRE  = regexp.MustCompile(`\((\w+)\)(?:\((\w+)\*(\d)\))?`)             // disp(BASE)(INDEX*scale)
	armMemRE = regexp.MustCompile(`\[(\w+)(?:,\s*(\w+)(?:,\s*lsl\s*#(\d))?)?`) // [xbase, xindex, lsl #s]
	immRE    = regexp.MustCompile(`^[$#]?(-?(?:0x[0-9a-fA-F]+|\d+))$`)
	dispRE   = regexp.MustCompile(`^(-?(?:0x[0-9a-fA-F]+|\d+))\((%?\w+)\)$`)
)

// memRegs returns the base and index registers of in's memory operand and
// the index's scale (1 when none), or "" when it has none.
func memRegs(in Inst, syntax Syntax, arm bool) (base, index string, scale int64) {
	scale = 1
	var m []string
	switch {
	case arm:
		m = armMemRE.FindStringSubmatch(in.Operands)
		if m != nil && m[3] != "" {
			s, _ := strconv.Atoi(m[3])
			m[3] = strconv.Itoa(1 << s)
		}
	case syntax == Go:
		m = goMemRE.FindStringSubmatch(in.Operands)
	default:
		m = attMemRE.FindStringSubmatch(in.Operands)
	}
	if m == nil {
		return "", "", 1
	}
	if m[3] != "" {
		scale, _ = strconv.ParseInt(m[3], 10, 64)
	}
	return register(m[1]), register(m[2]), scale
}

// stepOf returns the register in steps and by how much, or "" when it is
// not a constant step of a register into itself.
func stepOf(in Inst, syntax Syntax, arm bool) (string, int64) {
	mn := strings.ToLower(in.Mnemonic)
	ops := operands(in.Operands)
	sign := int64(1)
	switch {
	case strings.HasPrefix(mn, "sub"):
		sign = -1
	case strings.HasPrefix(mn, "add"), strings.HasPrefix(mn, "lea"):
	default:
		return "", 0
	}
	imm := func(s string) (int64, bool) {
		m := immRE.FindStringSubmatch(strings.TrimSpace(s))
		if m == nil {
			return 0, false
		}
		n, err := strconv.ParseInt(m[1], 0, 64)
		return n, err == nil
	}
	switch {
	case arm && len(ops) == 3 && register(ops[0]) != "" && register(ops[0]) == register(ops[1]):
		if n, ok := imm(ops[2]); ok {
			return register(ops[0]), sign * n
		}
	case strings.HasPrefix(mn, "lea") && len(ops) == 2:
		if m := dispRE.FindStringSubmatch(strings.TrimSpace(ops[0])); m != nil && register(m[2]) == register(ops[1]) {
			n, err := strconv.ParseInt(m[1], 0, 64)
			if err == nil {
				return register(ops[1]), n
			}
		}
	case !arm && len(ops) == 2 && register(ops[1]) != "":
		// AT&T and Go both put the source first: add $imm, reg.
		if n, ok := imm(ops[0]); ok {
			return register(ops[1]), sign * n
		}
	}
	return "", 0
}

// Strides returns the constant strides of the memory accesses in the
// innermost loops of a's timed region (a loop with no other loop inside
// it), one per access and register. syntax and arm say how to read the
// operands.
func (a Analysis) Strides(syntax Syntax, arm bool) []Stride {
	var out []Stride
	for i, l := range a.Loops {
		inner := true
		for j, o := range a.Loops {
			if j != i && o.Start >= l.Start && o.End <= l.End && (o.Start != l.Start || o.End != l.End) {
				inner = false
			}
		}
		if !inner {
			continue
		}
		var body []Inst
		for _, in := range a.Region {
			if in.Addr >= l.Start && in.Addr <= l.End {
				body = append(body, in)
			}
		}
		steps := map[string]Inst{}
		by := map[string]int64{}
		for _, in := range body {
			if r, n := stepOf(in, syntax, arm); r != "" && n != 0 {
				if _, seen := steps[r]; seen { // stepped twice: not one constant step
					by[r] = 0
					continue
				}
				steps[r], by[r] = in, n
			}
		}
		for _, in := range body {
			if !touchesMemory(in) {
				continue
			}
			base, index, scale := memRegs(in, syntax, arm)
			for _, c := range []struct {
				reg  string
				mult int64
			}{{base, 1}, {index, scale}} {
				if n := by[c.reg]; c.reg != "" && n != 0 {
					b := n * c.mult
					if b < 0 {
						b = -b
					}
					out = append(out, Stride{Bytes: b, Step: steps[c.reg].Text, Access: in.Text})
				}
			}
		}
	}
	return out
}

// textLineRE is a line of Func.Text: an optional source position, the
// address, a tab, the instruction.
var textLineRE = regexp.MustCompile(`^\s+(?:(\S+)\s+)?([0-9a-f]+):\t(.*)$`)

// FromText reads a function back from Func.Text (the assembly a result
// stores per variant); syntax says how branch targets are written.
func FromText(text string, syntax Syntax) (Func, error) {
	var f Func
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if f.Name == "" && strings.HasSuffix(line, ":") && !strings.HasPrefix(line, " ") {
			f.Name = strings.TrimSuffix(line, ":")
			continue
		}
		m := textLineRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		addr, err := strconv.ParseUint(m[2], 16, 64)
		if err != nil {
			continue
		}
		text := strings.TrimSpace(m[3])
		mn, ops := splitMnemonic(text)
		in := Inst{Addr: addr, Mnemonic: mn, Operands: ops, Source: m[1], Text: text}
		if isBranch(mn) || isCall(mn) {
			if syntax == Go {
				if t := goTarget.FindStringSubmatch(ops); t != nil {
					if t[1] != "" {
						in.Target, _ = strconv.ParseUint(t[1], 16, 64)
					} else {
						in.Sym = t[2]
					}
				}
			} else if t := gnuTarget.FindStringSubmatch(ops); t != nil {
				in.Target, _ = strconv.ParseUint(t[1], 16, 64)
				in.Sym = t[2]
			}
		}
		f.Insts = append(f.Insts, in)
	}
	if f.Name == "" || len(f.Insts) == 0 {
		return f, fmt.Errorf("no function in the assembly text")
	}
	return f, sc.Err()
}

// TextStrides reads a stored assembly text back (FromText) and gives the
// strides of its innermost loops' memory accesses: the syntax and the
// architecture follow from the kernel's language ("go" and "gotest" are
// Go's assembly, else GNU's) and its machine's architecture.
func TextStrides(text, lang, arch string) ([]Stride, error) {
	syntax := GNU
	if lang == "go" || lang == "gotest" {
		syntax = Go
	}
	arm := strings.Contains(arch, "aarch64") || strings.Contains(arch, "arm64")
	f, err := FromText(text, syntax)
	if err != nil {
		return nil, err
	}
	a, err := Analyze(f, arm)
	if err != nil {
		return nil, err
	}
	return a.Strides(syntax, arm), nil
}
