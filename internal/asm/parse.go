// Package asm reads disassembly (GNU objdump and go tool objdump), finds the
// region of a timed function between its two clock reads, and says from that
// region what the compiler left of the timed work: nothing (dead), an empty
// loop (hollow), or a loop with its arithmetic (live).
package asm

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// Syntax names the disassembler whose output a Reader reads.
type Syntax int

const (
	// GNU is `objdump -d --no-show-raw-insn` output (AT&T or Intel syntax).
	GNU Syntax = iota
	// Go is `go tool objdump` output.
	Go
)

// Inst is one instruction.
type Inst struct {
	Addr     uint64
	Mnemonic string // lower case, prefixes such as "rep;" or "bnd" dropped
	Operands string
	Target   uint64 // branch or call target address, 0 when none
	Sym      string // symbol named by a call or branch target, e.g. "clock_gettime@plt"
	Source   string // Go: file:line of the instruction; GNU: empty
	Text     string // the instruction as the disassembler printed it
}

// Func is one disassembled function.
type Func struct {
	Name  string
	Insts []Inst
}

// Text returns the function as the disassembler printed it, one instruction a line.
func (f Func) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:\n", f.Name)
	for _, in := range f.Insts {
		if in.Source != "" {
			fmt.Fprintf(&b, "  %-14s %x:\t%s\n", in.Source, in.Addr, in.Text)
		} else {
			fmt.Fprintf(&b, "  %x:\t%s\n", in.Addr, in.Text)
		}
	}
	return b.String()
}

// Reader reads functions from disassembler output, like bufio.Scanner:
// Scan advances to the next function, Func returns it, Err reports the
// first read error. Lines it cannot parse are skipped.
type Reader struct {
	sc      *bufio.Scanner
	syntax  Syntax
	cur     Func
	pending *Func
	err     error
}

// NewReader returns a Reader of r in the given syntax.
func NewReader(r io.Reader, syntax Syntax) *Reader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 4*1024*1024)
	return &Reader{sc: sc, syntax: syntax}
}

var (
	gnuFuncRE = regexp.MustCompile(`^([0-9a-f]+) <(.+)>:$`)
	gnuInstRE = regexp.MustCompile(`^\s+([0-9a-f]+):\s+(.*)$`)
	gnuTarget = regexp.MustCompile(`^([0-9a-f]+) <([^>]+)>`)
	goFuncRE  = regexp.MustCompile(`^TEXT (\S+)\(SB\)`)
	goInstRE  = regexp.MustCompile(`^\s+(\S+)\s+0x([0-9a-f]+)\s+([0-9a-f]+)\s+(.*?)\s*$`)
	goTarget  = regexp.MustCompile(`^(?:0x([0-9a-f]+)|(\S+)\(SB\))`)
)

// Scan advances to the next function and reports whether there is one.
func (r *Reader) Scan() bool {
	if r.err != nil {
		return false
	}
	for r.sc.Scan() {
		line := r.sc.Text()
		if name, ok := r.funcHeader(line); ok {
			next := Func{Name: name}
			if r.pending != nil {
				r.cur, r.pending = *r.pending, &next
				return true
			}
			r.pending = &next
			continue
		}
		if r.pending == nil {
			continue
		}
		if in, ok := r.inst(line); ok {
			r.pending.Insts = append(r.pending.Insts, in)
		}
	}
	if err := r.sc.Err(); err != nil {
		r.err = err
		return false
	}
	if r.pending != nil {
		r.cur, r.pending = *r.pending, nil
		return true
	}
	return false
}

// Func returns the function read by the last successful Scan.
func (r *Reader) Func() Func { return r.cur }

// Err returns the first read error.
func (r *Reader) Err() error { return r.err }

func (r *Reader) funcHeader(line string) (string, bool) {
	if r.syntax == Go {
		if m := goFuncRE.FindStringSubmatch(line); m != nil {
			return m[1], true
		}
		return "", false
	}
	if m := gnuFuncRE.FindStringSubmatch(line); m != nil {
		return m[2], true
	}
	return "", false
}

func (r *Reader) inst(line string) (Inst, bool) {
	if r.syntax == Go {
		return parseGoInst(line)
	}
	return parseGNUInst(line)
}

func parseGNUInst(line string) (Inst, bool) {
	m := gnuInstRE.FindStringSubmatch(line)
	if m == nil {
		return Inst{}, false
	}
	addr, err := strconv.ParseUint(m[1], 16, 64)
	if err != nil {
		return Inst{}, false
	}
	text := strings.TrimSpace(m[2])
	mn, ops := splitMnemonic(text)
	in := Inst{Addr: addr, Mnemonic: mn, Operands: ops, Text: text}
	if t := gnuTarget.FindStringSubmatch(ops); t != nil && (isBranch(mn) || isCall(mn)) {
		in.Target, _ = strconv.ParseUint(t[1], 16, 64)
		in.Sym = t[2]
	}
	return in, true
}

func parseGoInst(line string) (Inst, bool) {
	m := goInstRE.FindStringSubmatch(line)
	if m == nil {
		return Inst{}, false
	}
	addr, err := strconv.ParseUint(m[2], 16, 64)
	if err != nil {
		return Inst{}, false
	}
	text := strings.TrimSpace(m[4])
	mn, ops := splitMnemonic(text)
	in := Inst{Addr: addr, Mnemonic: mn, Operands: ops, Source: m[1], Text: text}
	if t := goTarget.FindStringSubmatch(ops); t != nil && (isBranch(mn) || isCall(mn)) {
		if t[1] != "" {
			in.Target, _ = strconv.ParseUint(t[1], 16, 64)
		} else {
			in.Sym = t[2]
		}
	}
	return in, true
}

// splitMnemonic splits "rep stos %rax,(%rdi)" or "REP; MOVSQ ..." into a
// lower-case mnemonic without prefixes and its operands.
func splitMnemonic(text string) (string, string) {
	if i := strings.Index(text, " #"); i >= 0 {
		text = strings.TrimSpace(text[:i])
	}
	fields := strings.Fields(text)
	prefixes := map[string]bool{"rep": true, "rep;": true, "repz": true, "repnz": true, "repe": true, "repne": true,
		"lock": true, "lock;": true, "bnd": true, "notrack": true, "data16": true, "cs": true, "ds": true}
	i := 0
	for i < len(fields)-1 && prefixes[strings.ToLower(fields[i])] {
		i++
	}
	if i >= len(fields) {
		return "", ""
	}
	mn := strings.ToLower(strings.TrimSuffix(fields[i], ";"))
	return mn, strings.Join(fields[i+1:], " ")
}

// Find returns the function named name in the disassembly read from r.
func Find(r io.Reader, syntax Syntax, name string) (Func, error) {
	rd := NewReader(r, syntax)
	for rd.Scan() {
		if f := rd.Func(); f.Name == name {
			return f, nil
		}
	}
	if err := rd.Err(); err != nil {
		return Func{}, err
	}
	return Func{}, fmt.Errorf("function %s not found in the disassembly", name)
}

// All reads every function from r, keyed by name.
func All(r io.Reader, syntax Syntax) (map[string]Func, error) {
	rd := NewReader(r, syntax)
	out := map[string]Func{}
	for rd.Scan() {
		f := rd.Func()
		out[f.Name] = f
	}
	return out, rd.Err()
}

// textInstRE is an instruction line of Func.Text: "  ADDR:\tTEXT" from
// GNU objdump, "  FILE:LINE ADDR:\tTEXT" from go tool objdump.
var textInstRE = regexp.MustCompile(`^  (?:(\S+)\s+)?([0-9a-f]+):\t(.*)$`)

// ParseText reads back a function written by Func.Text, in either syntax,
// as the disassembler gave it: the same instructions, with the same
// mnemonics, operands, targets and symbols. A line that is not an
// instruction is an error naming its line number.
func ParseText(text string) (Func, error) {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	name, ok := strings.CutSuffix(lines[0], ":")
	if !ok || name == "" || strings.HasPrefix(name, " ") {
		return Func{}, fmt.Errorf("line 1: %q is not a function header (NAME:)", lines[0])
	}
	f := Func{Name: name}
	for i, line := range lines[1:] {
		m := textInstRE.FindStringSubmatch(line)
		if m == nil {
			return Func{}, fmt.Errorf("line %d: %q is not an instruction (ADDR:<tab>TEXT)", i+2, line)
		}
		var in Inst
		if m[1] != "" {
			// The Go form: rebuild the line go tool objdump printed.
			in, ok = parseGoInst(fmt.Sprintf("  %s\t0x%s\t00\t%s", m[1], m[2], m[3]))
		} else {
			in, ok = parseGNUInst("  " + m[2] + ":\t" + m[3])
		}
		if !ok {
			return Func{}, fmt.Errorf("line %d: %q is not an instruction", i+2, line)
		}
		in.Text = m[3]
		f.Insts = append(f.Insts, in)
	}
	return f, nil
}
