package kernel

import (
	"strings"
	"testing"
)

func TestGlobMatch(t *testing.T) {
	cases := []struct {
		pattern, s string
		want       bool
	}{
		{"", "", true},
		{"", "a", false},
		{"*", "", true},
		{"*", "any/thing\nwith newline", true},
		{"a?c", "abc", true},
		{"a?c", "ac", false},
		{"a*c", "a/b/c", true},
		{"a*c", "a/b/cd", false},
		{"*x*y*", "__x__y__", true},
		{"*x*y*", "__y__x__", false},
		{"fmt.*(*)", "fmt.Println(x)", true},
		{"é?", "éü", true},   // ? is one character, not one byte
		{"[ab]", "a", false}, // brackets are literal
		{"[ab]", "[ab]", true},
		{"A*", "a", false}, // case-sensitive, like sqlite GLOB
	}
	for _, c := range cases {
		if got := globMatch(c.pattern, c.s); got != c.want {
			t.Errorf("globMatch(%q, %q) = %v, want %v", c.pattern, c.s, got, c.want)
		}
	}
}

// TestGlobMatchLinear checks that a pathological pattern does not blow up:
// exponential backtracking would not finish.
func TestGlobMatchLinear(t *testing.T) {
	s := strings.Repeat("a", 5000)
	if globMatch(strings.Repeat("*a", 50)+"b", s) {
		t.Error("matched a pattern ending in b")
	}
}

func TestHistoryTailBounds(t *testing.T) {
	var h history
	for i := 1; i <= 12; i++ {
		h.add(i, "x", nil)
	}
	n := func(v int) *int { return &v }
	cases := []struct {
		name string
		n    *int
		want int
	}{
		{"default is 10", nil, 10},
		{"more than stored", n(50), 12},
		{"zero", n(0), 0},
		{"negative", n(-1), 0},
	}
	for _, c := range cases {
		got := h.query(historyRequest{HistAccessType: "tail", N: c.n})
		if len(got) != c.want {
			t.Errorf("%s: %d entries, want %d", c.name, len(got), c.want)
		}
	}
	if got := h.query(historyRequest{HistAccessType: "bogus"}); len(got) != 0 {
		t.Errorf("unknown access type gave %v", got)
	}
}
