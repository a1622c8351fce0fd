package asm

import (
	"os"
	"testing"
)

// The stored assembly of the notebook's walk (2048 x 2048 ints, gcc 12 -O2)
// and of seed 000: the column walk's inner loop steps its pointer by one
// row, 8 KiB, a power of two; the row walk's inner loop steps 16 bytes
// (its outer loop's 8 KiB step is no stride of an access: the accesses
// run along the row); the padded column walk (BENCH_PAD 64 on a float
// matrix) steps 8256 bytes, no power of two; seed 000's sum steps 64 bytes
// (sixteen floats unrolled) or 4, and its discarded variant has no loop.
func TestStridesStoredAssembly(t *testing.T) {
	cases := []struct {
		file     string
		want     int64 // the largest stride of an access; 0: none
		powerOf2 bool  // a power of two of at least 4 KiB
	}{
		{"stride_walk_cols.txt", 8192, true},
		{"stride_walk_rows.txt", 16, false},
		{"stride_walk_cols_pad64.txt", 8256, false},
		{"stride_seed_discarded.txt", 0, false},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			b, err := os.ReadFile("testdata/" + c.file)
			if err != nil {
				t.Fatal(err)
			}
			f, err := FromText(string(b), GNU)
			if err != nil {
				t.Fatal(err)
			}
			a, err := Analyze(f, false)
			if err != nil {
				t.Fatal(err)
			}
			var got int64
			pow := false
			for _, s := range a.Strides(GNU, false) {
				got = max(got, s.Bytes)
				pow = pow || s.PowerOfTwo(4096)
			}
			if got != c.want || pow != c.powerOf2 {
				t.Errorf("largest stride %d (power of two >= 4 KiB: %v), want %d (%v): %+v", got, pow, c.want, c.powerOf2, a.Strides(GNU, false))
			}
		})
	}
}

// The step forms of each syntax: AT&T add/sub/lea, Go ADDQ/LEAQ and arm64
// add with the index's scale; a register stepped twice has no one stride.
func TestStepAndMemOperands(t *testing.T) {
	cases := []struct {
		name   string
		syntax Syntax
		arm    bool
		step   Inst
		access Inst
		want   int64
	}{
		{"att add", GNU, false, Inst{Mnemonic: "add", Operands: "$0x2000,%rax"}, Inst{Mnemonic: "movss", Operands: "(%rax),%xmm0"}, 8192},
		{"att sub", GNU, false, Inst{Mnemonic: "sub", Operands: "$0x1000,%rdx"}, Inst{Mnemonic: "addss", Operands: "0x10(%rdx),%xmm0"}, 4096},
		{"att lea", GNU, false, Inst{Mnemonic: "lea", Operands: "0x2000(%rcx),%rcx"}, Inst{Mnemonic: "mov", Operands: "(%rcx),%eax"}, 8192},
		{"att index scale", GNU, false, Inst{Mnemonic: "add", Operands: "$0x800,%rsi"}, Inst{Mnemonic: "addss", Operands: "(%rdi,%rsi,4),%xmm0"}, 8192},
		{"go addq", Go, false, Inst{Mnemonic: "addq", Operands: "$0x2000, AX"}, Inst{Mnemonic: "movss", Operands: "0(AX), X0"}, 8192},
		{"go index", Go, false, Inst{Mnemonic: "addq", Operands: "$0x400, CX"}, Inst{Mnemonic: "addss", Operands: "0(DX)(CX*8), X0"}, 8192},
		{"arm64", GNU, true, Inst{Mnemonic: "add", Operands: "x1, x1, #0x2000"}, Inst{Mnemonic: "ldr", Operands: "s1, [x1]"}, 8192},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.step.Addr, c.access.Addr = 0x10, 0x14
			br := Inst{Addr: 0x18, Mnemonic: "jne", Target: 0x10}
			a := Analysis{Region: []Inst{c.step, c.access, br}, Loops: []Loop{{Start: 0x10, End: 0x18}}}
			s := a.Strides(c.syntax, c.arm)
			if len(s) != 1 || s[0].Bytes != c.want {
				t.Errorf("strides %+v, want one of %d", s, c.want)
			}
			twice := Analysis{Region: []Inst{c.step, c.step, c.access, br}, Loops: []Loop{{Start: 0x10, End: 0x18}}}
			twice.Region[1].Addr = 0x12
			if s := twice.Strides(c.syntax, c.arm); len(s) != 0 {
				t.Errorf("stepped twice: strides %+v, want none", s)
			}
		})
	}
}
