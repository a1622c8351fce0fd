package asm

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/pmezard/go-difflib/difflib"
)

// Normalize returns a listing one instruction a line with only what moves
// when nothing changed left out, so that two listings of the same code are
// equal wherever it was linked, and any change of the code shows:
//
//   - left out: the address column, the encoded bytes, Go's file:line column,
//     alignment padding (nop of any length, xchg %ax,%ax, and a jmp over
//     nops to the instruction after them), the address of a
//     function header, the displacement of a rip-relative operand (the
//     symbol of objdump's comment stays, with its offset into a named object
//     but not into the .rodata literal pool: see anchorSym),
//     and absolute addresses (non-PIE data, branch targets);
//   - rewritten: a branch or call whose target is an instruction of the
//     listing reads ".+N" or ".-N", N counted in instructions (nops left
//     out), so that a loop reads the same at any address and a change of
//     its shape shows; a target outside the listing keeps its symbol
//     without the offset (<clock_gettime@plt>, not 1060 <clock_gettime@plt>);
//   - kept: mnemonics and prefixes, registers, immediates ($0x1000),
//     displacements off other registers (0x10(%rsp), -0x8(%rbp), 0x10(R14)),
//     index and scale, and symbol names (runtime.nanotime(SB), main.a(SB)).
//
// It reads GNU objdump -d output (AT&T or Intel, with or without raw bytes),
// go tool objdump output, and Func.Text of either.
func Normalize(text string) []string {
	type line struct {
		addr    uint64
		hasAddr bool
		text    string // instruction without address/bytes/source, or a header
	}
	var lines []line
	for _, raw := range strings.Split(text, "\n") {
		raw = strings.TrimRight(raw, " \t\r")
		if strings.TrimSpace(raw) == "" {
			continue
		}
		if h, ok := header(raw); ok {
			if h != "" {
				lines = append(lines, line{text: h})
			}
			continue
		}
		addr, inst, ok := instLine(raw)
		if !ok {
			continue // "...", file:line of objdump -l, anything else between instructions
		}
		if inst == "" || isPadding(inst) {
			lines = append(lines, line{addr: addr, hasAddr: true}) // kept for targets, not shown
			continue
		}
		lines = append(lines, line{addr: addr, hasAddr: true, text: inst})
	}
	// A jmp over nothing but padding to the next instruction is padding
	// too: the assembler writes one before a long run of nops (an
	// alignment of 128 bytes, say) so that they are not executed.
	for i, l := range lines {
		if l.hasAddr && l.text != "" && isPaddingJump(l.text) {
			j := i + 1
			for j < len(lines) && lines[j].hasAddr && lines[j].text == "" {
				j++
			}
			if j > i+1 && j < len(lines) && lines[j].hasAddr && jumpTarget(l.text) == lines[j].addr {
				lines[i].text = ""
			}
		}
	}
	// index: the address of each instruction -> its position among the
	// shown instructions; padding maps to the instruction after it.
	index := map[uint64]int{}
	n, pending := 0, []uint64{}
	for _, l := range lines {
		if !l.hasAddr {
			continue
		}
		if l.text == "" {
			pending = append(pending, l.addr)
			continue
		}
		for _, a := range pending {
			index[a] = n
		}
		pending = pending[:0]
		index[l.addr] = n
		n++
	}
	for _, a := range pending {
		index[a] = n
	}
	var out []string
	pos := 0
	for _, l := range lines {
		switch {
		case !l.hasAddr:
			out = append(out, l.text)
		case l.text != "":
			out = append(out, normalizeInst(l.text, pos, index))
			pos++
		}
	}
	return out
}

var (
	gnuHeaderRE   = regexp.MustCompile(`^[0-9a-f]+ <(.+)>:$`)
	goHeaderRE    = regexp.MustCompile(`^TEXT (\S+)`)
	goRawInstRE   = regexp.MustCompile(`^\s+(?:\S+:\d+\s+)?0x([0-9a-f]+)\s+[0-9a-f]+\s+(.*)$`)
	goTextInstRE  = regexp.MustCompile(`^\s+\S+:\d+\s+([0-9a-f]+):\s*(.*)$`)
	gnuInstLineRE = regexp.MustCompile(`^\s+([0-9a-f]+):\s*(.*)$`)
	rawBytesRE    = regexp.MustCompile(`^(?:[0-9a-f]{2} ?)+\s*(?:\t|$)`)
	gnuTargetRE   = regexp.MustCompile(`^(?:\*)?([0-9a-f]+)(?:\s+<([^>]+)>)?$`)
	goTargetRE    = regexp.MustCompile(`^0x([0-9a-f]+)$`)
	ripATTRE      = regexp.MustCompile(`-?0x[0-9a-f]+\(%rip\)`)
	ripIntelRE    = regexp.MustCompile(`\[rip\s*[-+]\s*0x[0-9a-f]+\]`)
	commentAddrRE = regexp.MustCompile(`^#\s*(?:0x)?[0-9a-f]+\s*(<[^>]*>)?`)
	bareAddrRE    = regexp.MustCompile(`(^|[ ,])-?0x[0-9a-f]+(,|$)`)
	symAddrRE     = regexp.MustCompile(`(^|[ ,])[0-9a-f]+ <([^>]+)>`)
	symOffsetRE   = regexp.MustCompile(`\+0x[0-9a-f]+$`)
)

// header returns a function header as Func.Text prints it ("f:" for
// objdump's "0000000000001c10 <f>:" and Go's "TEXT f(SB) file"), "" with ok for a line that says nothing about the code, and !ok
// for an instruction line.
func header(l string) (string, bool) {
	if m := gnuHeaderRE.FindStringSubmatch(l); m != nil {
		return m[1] + ":", true
	}
	if m := goHeaderRE.FindStringSubmatch(l); m != nil {
		return strings.TrimSuffix(m[1], "(SB)") + ":", true
	}
	if l[0] == ' ' || l[0] == '\t' {
		return "", false
	}
	if strings.HasPrefix(l, "Disassembly of") || strings.Contains(l, "file format") {
		return "", true
	}
	if strings.HasSuffix(l, ":") && !strings.ContainsAny(l, " \t") {
		return l, true // Func.Text's "name:"
	}
	return "", true // objdump -l's file:line, and the like
}

// instLine splits an instruction line into its address and the instruction
// as printed, without bytes or source position; inst is "" for a line of
// raw bytes only (a long instruction's continuation).
func instLine(l string) (addr uint64, inst string, ok bool) {
	var m []string
	if m = goRawInstRE.FindStringSubmatch(l); m == nil {
		if m = goTextInstRE.FindStringSubmatch(l); m == nil {
			m = gnuInstLineRE.FindStringSubmatch(l)
		}
	}
	if m == nil {
		return 0, "", false
	}
	a, err := strconv.ParseUint(m[1], 16, 64)
	if err != nil {
		return 0, "", false
	}
	rest := m[2]
	if b := rawBytesRE.FindString(rest); b != "" {
		rest = rest[len(b):]
	}
	return a, strings.TrimSpace(rest), true
}

// isPadding reports whether inst only fills space: a nop of any form.
func isPadding(inst string) bool {
	mn, ops := splitMnemonic(inst)
	if strings.HasPrefix(mn, "nop") {
		return true
	}
	ops = strings.ReplaceAll(strings.ToLower(ops), " ", "")
	return (mn == "xchg" || mn == "xchgw") && (ops == "%ax,%ax" || ops == "ax,ax")
}

// isPaddingJump reports an unconditional direct jmp (AT&T or Intel).
func isPaddingJump(inst string) bool {
	mn, _ := splitMnemonic(inst)
	return mn == "jmp" || mn == "jmpq"
}

// jumpTarget is the address a direct GNU jmp goes to, or 0.
func jumpTarget(inst string) uint64 {
	_, ops := splitMnemonic(inst)
	m := gnuTargetRE.FindStringSubmatch(strings.TrimSpace(ops))
	if m == nil || strings.HasPrefix(strings.TrimSpace(ops), "*") {
		return 0
	}
	a, _ := strconv.ParseUint(m[1], 16, 64)
	return a
}

// normalizeInst rewrites one instruction, the pos-th shown.
func normalizeInst(inst string, pos int, index map[uint64]int) string {
	code, comment := inst, ""
	if i := commentStart(inst); i >= 0 {
		code, comment = strings.TrimSpace(inst[:i]), strings.TrimSpace(inst[i:])
	}
	fields := strings.Fields(code)
	mn, ops := splitMnemonic(code)
	// everything before the operands: prefixes and mnemonic as printed
	head := fields[:len(fields)-len(strings.Fields(ops))]
	if isBranch(mn) || isCall(mn) {
		ops = normalizeTarget(ops, pos, index)
	} else {
		ops = ripATTRE.ReplaceAllString(ops, "(%rip)")
		ops = ripIntelRE.ReplaceAllString(ops, "[rip]")
		ops = symAddrRE.ReplaceAllString(ops, "${1}<${2}>") // arm64: adrp x0, 11000 <a+0x8>
		for bareAddrRE.MatchString(ops) {
			ops = bareAddrRE.ReplaceAllString(ops, "${1}ADDR${2}")
		}
	}
	if comment != "" {
		// objdump's "# 3004 <_IO_stdin_used+0x4>": keep the symbol, drop the address
		if m := commentAddrRE.FindStringSubmatch(comment); m != nil {
			comment = strings.TrimSpace("# " + anchorSym(m[1]) + comment[len(m[0]):])
			if comment == "#" {
				comment = ""
			}
		}
	}
	s := strings.Join(head, " ")
	if ops != "" {
		s += " " + strings.Join(strings.Fields(ops), " ")
	}
	if comment != "" {
		s += " " + comment
	}
	return s
}

// commentStart is the index of objdump's trailing "# ..." comment, or -1.
func commentStart(inst string) int {
	for i := 1; i < len(inst); i++ {
		if inst[i] == '#' && (inst[i-1] == ' ' || inst[i-1] == '\t') {
			return i
		}
	}
	return -1
}

// normalizeTarget rewrites a direct branch or call target.
func normalizeTarget(ops string, pos int, index map[uint64]int) string {
	ops = strings.TrimSpace(ops)
	var addr, sym string
	if m := gnuTargetRE.FindStringSubmatch(ops); m != nil && !strings.HasPrefix(ops, "*") {
		addr, sym = m[1], m[2]
	} else if m := goTargetRE.FindStringSubmatch(ops); m != nil {
		addr = m[1]
	} else {
		// indirect (*%rax, *0x2fe2(%rip)) or symbolic (runtime.nanotime(SB))
		return ripATTRE.ReplaceAllString(ops, "(%rip)")
	}
	a, err := strconv.ParseUint(addr, 16, 64)
	if err == nil {
		if i, ok := index[a]; ok {
			return fmt.Sprintf(".%+d", i-pos)
		}
	}
	if sym != "" {
		return "<" + symOffsetRE.ReplaceAllString(sym, "") + ">"
	}
	return "ADDR"
}

// anchorSym drops the offset from a symbol that only marks where a section
// starts: glibc's _IO_stdin_used heads .rodata, so "<_IO_stdin_used+0x10>"
// is a place in the pool of literals that moves when an unrelated literal is
// added. An offset into a named object (<a+0x40>) is kept: it says which
// element the code reads.
func anchorSym(comment string) string {
	return anchorRE.ReplaceAllString(comment, "<$1>")
}

var anchorRE = regexp.MustCompile(`<(_IO_stdin_used|\.[^>+]*)\+0x[0-9a-f]+>`)

// Diff is a unified diff of two listings after Normalize, with one line of
// context, and the number of lines that differ (added plus removed).
func Diff(before, after string) (unified string, changedLines int) {
	a, b := Normalize(before), Normalize(after)
	text, _ := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{A: withNL(a), B: withNL(b), FromFile: "before", ToFile: "after", Context: 1})
	for _, l := range strings.Split(text, "\n") {
		if (strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-")) && !strings.HasPrefix(l, "+++") && !strings.HasPrefix(l, "---") {
			changedLines++
		}
	}
	return text, changedLines
}

func withNL(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l + "\n"
	}
	return out
}
