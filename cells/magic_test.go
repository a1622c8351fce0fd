package cells

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseMagic(t *testing.T) {
	cases := []struct {
		name, code string
		kind       Kind
		kname      string
		args       []string
		err        string
	}{
		{"glue", "x := 1\n", Glue, "", nil, ""},
		{"c with default flags", "%%c seed\nBENCH(a) {}\n", NativeC, "seed", []string{}, ""},
		{"c with flags", "%%c seed -O0 -std=c11\nBENCH(a) {}", NativeC, "seed", []string{"-O0", "-std=c11"}, ""},
		{"go with quoted flag", "%%go twin \"-gcflags=-N -l\"\nfunc BenchA() {}", NativeGo, "twin", []string{"-gcflags=-N -l"}, ""},
		{"gotest with flags", "%%gotest sums -gcflags=-B\nfunc BenchmarkA(b *testing.B) {}", NativeGoTest, "sums", []string{"-gcflags=-B"}, ""},
		{"bench with keys", `%bench seed quick predict="sink/discarded>100"`, Bench, "seed", []string{"quick", "predict=sink/discarded>100"}, ""},
		{"missing name", "%%c\nBENCH(a) {}", 0, "", nil, "needs a kernel name"},
		{"bad name", "%%c 9lives\nBENCH(a) {}", 0, "", nil, "is an identifier"},
		{"keyword name", "%bench func", 0, "", nil, "not a Go keyword"},
		{"unknown magic", "%%rust k\nfn main() {}", 0, "", nil, "unknown magic %%rust"},
		{"bench with a body", "%bench seed\nx := 1", 0, "", nil, "is one line"},
		{"empty kernel", "%%c k\n\n", 0, "", nil, "no code below"},
		{"unclosed quote", `%bench seed predict="a/b>1`, 0, "", nil, "unclosed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := ParseMagic(c.code)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("got %v, want an error containing %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if m.Kind != c.kind || m.Name != c.kname || (c.args != nil && !reflect.DeepEqual(m.Args, c.args)) {
				t.Errorf("got %+v", m)
			}
		})
	}
}
