package glue

import (
	"strings"
	"testing"
)

// Requirement 1: state lasts across cells; redefinitions win; imports may
// be written, mixed with statements, or left out.

func TestStateLastsAcrossCells(t *testing.T) {
	s := newSession(t, Options{})
	mustRun(t, s, "Cell [1]", "func f() int { return 1 }\nx := 10")
	mustRun(t, s, "Cell [2]", "func f() int { return 2 }")
	res, _ := mustRun(t, s, "Cell [3]", "f() + x")
	if got := plain(res); got != "12" {
		t.Errorf("f() + x after redefining f = %q, want 12 (the new f)", got)
	}
	mustRun(t, s, "Cell [4]", "x := \"now a string\"\nvar y = 1")
	mustRun(t, s, "Cell [5]", "var y = 2")
	res, _ = mustRun(t, s, "Cell [6]", "x + \" \" + strconv.Itoa(y)")
	if got := plain(res); got != `"now a string 2"` {
		t.Errorf("redefined x and y = %s, want \"now a string 2\"", got)
	}
}

func TestRedefinedFuncReachesItsCallers(t *testing.T) {
	s := newSession(t, Options{})
	mustRun(t, s, "Cell [1]", "func f() int { return 1 }\nfunc g() int { return f() * 10 }\nfunc h() int { return g() + 1 }")
	mustRun(t, s, "Cell [2]", "func f() int { return 2 }")
	res, _ := mustRun(t, s, "Cell [3]", "h()")
	if got := plain(res); got != "21" {
		t.Errorf("h() -> g() -> f() after redefining f = %s, want 21", got)
	}
}

func TestImportsMixedWithStatements(t *testing.T) {
	s := newSession(t, Options{})
	code := "import \"strings\"\nimport (\n\t\"unicode\"\n)\nx := strings.ToUpper(\"go\")\nunicode.IsUpper(rune(x[0]))"
	res, _ := mustRun(t, s, "Cell [1]", code)
	if got := plain(res); got != "true" {
		t.Errorf("result = %q, want true", got)
	}
	// Importing again in a later cell is harmless.
	res, _ = mustRun(t, s, "Cell [2]", "import \"strings\"\nstrings.Repeat(\"ab\", 2)")
	if got := plain(res); got != `"abab"` {
		t.Errorf("result = %q, want \"abab\"", got)
	}
}

func TestAutoImport(t *testing.T) {
	s := newSession(t, Options{})
	res, _ := mustRun(t, s, "Cell [1]", "strings.Repeat(\"a\", 3)")
	if got := plain(res); got != `"aaa"` {
		t.Errorf("strings.Repeat without import = %q, want \"aaa\"", got)
	}
	if p := s.importedPath("strings"); p != "strings" {
		t.Errorf("strings imported as %q", p)
	}
}

func TestAutoImportPicksThePackageThatHasTheSelector(t *testing.T) {
	tests := []struct {
		name, code, want string
	}{
		{"crypto/rand has Prime and Reader", "p, err := rand.Prime(rand.Reader, 32)\nerr == nil && p.BitLen() == 32", "crypto/rand"},
		{"math/rand has Perm; v2 is not preferred", "len(rand.Perm(4))", "math/rand"},
		{"math/rand/v2 alone has IntN", "rand.IntN(5) < 5", "math/rand/v2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newSession(t, Options{})
			mustRun(t, s, "Cell [1]", tc.code)
			if p := s.importedPath("rand"); p != tc.want {
				t.Errorf("rand resolved to %q, want %q", p, tc.want)
			}
		})
	}
}

func TestAutoImportDoesNotShadowUserNames(t *testing.T) {
	s := newSession(t, Options{})
	mustRun(t, s, "Cell [1]", "strings := []string{\"a\", \"b\"}")
	res, _ := mustRun(t, s, "Cell [2]", "len(strings)")
	if got := plain(res); got != "2" {
		t.Errorf("len(strings) = %q, want 2", got)
	}
	res, _ = mustRun(t, s, "Cell [3]", "type sort struct{ n int }\nx := sort{n: 3}\nx.n")
	if got := plain(res); got != "3" {
		t.Errorf("x.n = %q, want 3", got)
	}
	for _, name := range []string{"strings", "sort"} {
		if p := s.importedPath(name); p != "" {
			t.Errorf("%s was imported (%q) although a cell declared it", name, p)
		}
	}
}

// Requirement 2: the value of the final expression is the result.

func TestResultForms(t *testing.T) {
	s := newSession(t, Options{})
	mustRun(t, s, "Cell [0]", "type P struct{ X, Y int }\nfunc nothing() {}\ntype S struct{}\nfunc (S) String() string { return \"I am S\" }")
	tests := []struct {
		name, code string
		want       string // "" means no result
	}{
		{"int", "40 + 2", "42"},
		{"float", "1.5 * 2", "3"},
		{"string is a Go literal", "\"a\\tb\"", `"a\tb"`},
		{"struct with field names", "P{1, 2}", "{X:1 Y:2}"},
		{"pointer to struct", "&P{3, 4}", "&{X:3 Y:4}"},
		{"slice", "[]int{1, 2, 3}", "[1 2 3]"},
		{"two values", "strconv.Atoi(\"12\")", "12, nil"},
		{"error", "errors.New(\"bad thing\")", "bad thing"},
		{"Stringer of the standard library", "time.Duration(1500) * time.Millisecond", "1.5s"},
		{"interpreted Stringer", "S{}", "I am S"},
		{"nil", "error(nil)", "nil"},
		{"assignment shows nothing", "v := 5", ""},
		{"assignment to existing shows nothing", "v := 1\nv = 6", ""},
		{"call without value shows nothing", "nothing()", ""},
		{"declaration shows nothing", "func more() int { return 1 }", ""},
		{"for loop shows nothing", "n := 0\nfor i := 0; i < 3; i++ { n += i }", ""},
		{"fmt.Printf's count and error are not shown", "fmt.Printf(\"x\\n\")", ""},
		{"fmt.Fprintln's neither", "fmt.Fprintln(os.Stderr, \"y\")", ""},
		{"other (n, err) results are", "strings.NewReader(\"abc\").Read(make([]byte, 2))", "2, nil"},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, _ := mustRun(t, s, "Cell ["+string(rune('a'+i))+"]", tc.code)
			if tc.want == "" {
				if res != nil {
					t.Errorf("result = %v, want none", res)
				}
				return
			}
			if got := plain(res); got != tc.want {
				t.Errorf("result = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestSessionsAreIndependent(t *testing.T) {
	a := newSession(t, Options{})
	b := newSession(t, Options{})
	mustRun(t, a, "Cell [1]", "onlyInA := 1")
	_, e, _ := run(t, b, "Cell [1]", "onlyInA")
	if e == nil || !strings.Contains(e.Value, "undefined: onlyInA") {
		t.Errorf("session b sees a's variable: err = %v", e)
	}
}
