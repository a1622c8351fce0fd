package asm

import (
	"regexp"
	"strings"
)

var (
	fpArithRE = regexp.MustCompile(`^(v?(add|sub|mul|div|min|max|sqrt|hadd|hsub|rcp|rsqrt)(ss|sd|ps|pd|sh|ph)|` +
		`vf(n?)m(add|sub|addsub|subadd)\d*(ss|sd|ps|pd|sh|ph)|f(add|sub|subr|mul|div|divr)p?|` +
		`fmadd|fmsub|fnmadd|fnmsub|fmla|fmls|faddp|fabd|fneg|fsqrt|fmax|fmin)$`)
	intArithRE = regexp.MustCompile(`^(add|adc|sub|sbb|imul|mul|div|idiv|inc|dec|neg|and|or|xor|not|shl|shr|sar|sal|` +
		`rol|ror|popcnt|lzcnt|tzcnt|bsf|bsr|andn|blsr|shlx|shrx|sarx|mulx|adds|subs|madd|msub|eor|orr|lsl|lsr|asr|` +
		`v?p(add|sub|mul|and|or|xor|sll|srl|sra|madd|min|max|abs|sad)\w*)[bwlq]?$`)
	otherRegRE = regexp.MustCompile(`^([xwv]\d+|[xyz]?mm\d+|r\d+|s\d+|d\d+|q\d+)$`)
	cmpRE      = regexp.MustCompile(`^(cmp|test|cmn|tst|ucomis|comis|v?ucomis|v?comis)\w*$`)
)

// isCall reports whether mn calls a function.
func isCall(mn string) bool {
	switch mn {
	case "call", "callq", "bl", "blr":
		return true
	}
	return false
}

// isBranch reports whether mn is a jump (conditional or not), not a call.
func isBranch(mn string) bool {
	if strings.HasPrefix(mn, "j") {
		return true
	}
	switch mn {
	case "b", "br", "cbz", "cbnz", "tbz", "tbnz", "loop", "loope", "loopne":
		return true
	}
	if strings.HasPrefix(mn, "b.") {
		return true
	}
	// Go's arm64 syntax: BNE, BLT, ...
	return len(mn) == 3 && mn[0] == 'b' && strings.Contains("eq ne lt le gt ge lo ls hi hs cc cs mi pl vs vc", mn[1:])
}

// isFP reports whether mn is floating-point arithmetic.
func isFP(mn string) bool { return fpArithRE.MatchString(mn) }

// isInt reports whether mn is integer or vector-integer arithmetic.
func isInt(mn string) bool { return intArithRE.MatchString(mn) && !isFP(mn) }

// isCompare reports whether mn only sets flags.
func isCompare(mn string) bool { return cmpRE.MatchString(mn) }

// operands splits an operand list at top-level commas.
func operands(ops string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range ops {
		switch c {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(ops[start:i]))
				start = i + 1
			}
		}
	}
	if s := strings.TrimSpace(ops[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

// touchesMemory reports whether an operand list has a memory reference.
func touchesMemory(in Inst) bool {
	if in.Mnemonic == "lea" || strings.HasPrefix(in.Mnemonic, "lea") || in.Mnemonic == "nop" ||
		strings.HasPrefix(in.Mnemonic, "nop") || isBranch(in.Mnemonic) || isCall(in.Mnemonic) {
		return false
	}
	return strings.ContainsAny(in.Operands, "([")
}

// x86 register aliases, folded to one name per architectural register.
var x86Family = func() map[string]string {
	m := map[string]string{}
	for _, r := range []string{"a", "b", "c", "d"} {
		full := "r" + r + "x"
		for _, alias := range []string{full, "e" + r + "x", r + "x", r + "l", r + "h"} {
			m[alias] = full
		}
	}
	for _, r := range []string{"si", "di", "bp", "sp"} {
		for _, alias := range []string{"r" + r, "e" + r, r, r + "l"} {
			m[alias] = "r" + r
		}
	}
	for i := 8; i <= 15; i++ {
		n := "r" + itoa(i)
		for _, suffix := range []string{"", "d", "w", "b"} {
			m[n+suffix] = n
		}
	}
	// Go syntax names
	for _, g := range [][2]string{{"ax", "rax"}, {"bx", "rbx"}, {"cx", "rcx"}, {"dx", "rdx"}, {"si", "rsi"},
		{"di", "rdi"}, {"bp", "rbp"}, {"sp", "rsp"}} {
		m[g[0]] = g[1]
	}
	return m
}()

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return string(rune('0'+i/10)) + string(rune('0'+i%10))
}

// register returns the canonical register named by an operand that is a
// plain register, or "".
func register(op string) string {
	op = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(op), "%"))
	if op == "" || strings.ContainsAny(op, "()[]$#") {
		return ""
	}
	if f, ok := x86Family[op]; ok {
		return f
	}
	if otherRegRE.MatchString(op) {
		// arm64 w/x views of one register
		if op[0] == 'w' {
			return "x" + op[1:]
		}
		return op
	}
	return ""
}

// isZeroIdiom reports "xor %eax,%eax"-style register clears, which are moves, not arithmetic.
func isZeroIdiom(in Inst) bool {
	if !strings.Contains(in.Mnemonic, "xor") && in.Mnemonic != "eor" && !strings.HasPrefix(in.Mnemonic, "sub") {
		return false
	}
	ops := operands(in.Operands)
	if len(ops) < 2 {
		return false
	}
	first := register(ops[0])
	if first == "" {
		return false
	}
	for _, o := range ops[1:] {
		if register(o) != first {
			return false
		}
	}
	return true
}

// isStackAdjust reports add/sub on the stack pointer (frame set-up, not work).
func isStackAdjust(in Inst) bool {
	if !strings.HasPrefix(in.Mnemonic, "add") && !strings.HasPrefix(in.Mnemonic, "sub") {
		return false
	}
	ops := operands(in.Operands)
	return len(ops) > 0 && (register(ops[len(ops)-1]) == "rsp" || register(ops[0]) == "sp")
}

// dest returns the register an instruction writes, for AT&T and Go syntax
// (last operand) and arm64 GNU syntax (first operand).
func dest(in Inst, arm bool) string {
	ops := operands(in.Operands)
	if len(ops) == 0 {
		return ""
	}
	if arm {
		return register(ops[0])
	}
	return register(ops[len(ops)-1])
}
