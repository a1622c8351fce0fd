package harness

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/records"
)

// runChecksum runs variant a of k for one pass and returns its checksum
// record's got field: what the code in the binary computed.
func runChecksum(t *testing.T, k *Kernel) float64 {
	t.Helper()
	out := filepath.Join(t.TempDir(), "rec.txt")
	if b, err := exec.Command(k.Binary, "run", "-out", out, "-slots", "a", "-rounds", "1", "-warmup", "0").CombinedOutput(); err != nil {
		t.Fatalf("run %s: %v\n%s", k.Binary, err, b)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rr := records.NewReader(f)
	for rr.Scan() {
		if r := rr.Record(); r.Kind == "checksum" {
			got, err := strconv.ParseFloat(r.Fields["got"], 64)
			if err != nil {
				t.Fatal(err)
			}
			return got
		}
	}
	t.Fatalf("no checksum record (%v)", rr.Err())
	return 0
}

// Issue 23 item 1: a header the cell includes reaches the binary. Changing
// its #define rebuilds, the rebuild names the header, and the binary
// computes with the new value; changing it back finds the first build
// again. The same for a header given with -include, an object file named
// as a flag, and a shared library the linker takes with -L/-l.
func TestIncludedFilesReachTheKey(t *testing.T) {
	dir := t.TempDir()
	header := filepath.Join(dir, "work.h")
	write := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(header, "#define WORK 1000\n")
	spec := Spec{Name: "k", Lang: "c", Code: "#include \"work.h\"\nBENCH(a) { bench_checksum((double)WORK, 1000.0); }\n",
		Line: 2, Label: "Cell[1]", Flags: []string{"-std=c11", "-O2", "-I" + dir}, CacheDir: t.TempDir()}
	first := build(t, spec)
	if first.Cached || runChecksum(t, first) != 1000 {
		t.Fatalf("first build: cached=%v", first.Cached)
	}
	if again := build(t, spec); !again.Cached || len(again.Deps) == 0 {
		t.Fatalf("unchanged: cached=%v with %d deps", again.Cached, len(again.Deps))
	}
	write(header, "#define WORK 1000000\n")
	second := build(t, spec)
	if second.Cached || second.Key == first.Key {
		t.Fatal("the header changed and the build was taken from the cache")
	}
	if want := "header " + header + " changed"; second.Rebuilt != want {
		t.Errorf("rebuilt says %q, want %q", second.Rebuilt, want)
	}
	if got := runChecksum(t, second); got != 1e6 {
		t.Errorf("the rebuilt binary computes %v, want the new WORK 1000000", got)
	}
	write(header, "#define WORK 1000\n")
	if back := build(t, spec); !back.Cached || back.Key != first.Key {
		t.Errorf("the header changed back: cached=%v, first key=%v", back.Cached, back.Key == first.Key)
	}
	if err := os.Remove(header); err != nil {
		t.Fatal(err)
	}
	if _, err := Build(context.Background(), spec); err == nil {
		t.Error("the header is gone and the build was taken from the cache")
	}

	t.Run("-include", func(t *testing.T) {
		inc := filepath.Join(t.TempDir(), "forced.h")
		write(inc, "#define WORK 1\n")
		s := spec
		s.Code = "BENCH(a) { bench_checksum((double)WORK, 1.0); }\n"
		s.Flags = []string{"-O2", "-include", inc}
		build(t, s)
		write(inc, "#define WORK 2\n")
		k := build(t, s)
		if k.Cached || !strings.Contains(k.Rebuilt, inc+" changed") || runChecksum(t, k) != 2 {
			t.Errorf("an -include file changed: cached=%v rebuilt=%q", k.Cached, k.Rebuilt)
		}
	})
	t.Run("object and library", func(t *testing.T) {
		lib := t.TempDir()
		compileObj := func(v string) {
			t.Helper()
			write(filepath.Join(lib, "w.c"), "double work(void) { return "+v+"; }\n")
			for _, args := range [][]string{{"-c", "-O2", "-fPIC", "-o", filepath.Join(lib, "w.o"), filepath.Join(lib, "w.c")},
				{"-shared", "-o", filepath.Join(lib, "libw.so"), filepath.Join(lib, "w.o")}} {
				if b, err := exec.Command("cc", args...).CombinedOutput(); err != nil {
					t.Fatalf("%v %s", err, b)
				}
			}
		}
		for _, tc := range []struct {
			name  string
			flags []string
			file  string
		}{
			{"object named as a flag", []string{"-O2", filepath.Join(lib, "w.o")}, "object " + filepath.Join(lib, "w.o") + " changed"},
			{"shared library by -L -l", []string{"-O2", "-Wl,--no-as-needed", "-L" + lib, "-lw", "-Wl,-rpath," + lib}, "library " + filepath.Join(lib, "libw.so") + " changed"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				compileObj("7")
				s := spec
				s.Code = "double work(void);\nBENCH(a) { bench_checksum(work(), 7.0); }\n"
				s.Flags = tc.flags
				if k := build(t, s); runChecksum(t, k) != 7 {
					t.Fatal("the first build does not compute 7")
				}
				compileObj("8")
				k := build(t, s)
				if k.Cached || !strings.Contains(k.Rebuilt, tc.file) || runChecksum(t, k) != 8 {
					t.Errorf("cached=%v rebuilt=%q, want a rebuild naming %q that computes 8", k.Cached, k.Rebuilt, tc.file)
				}
			})
		}
	})
}

// A Go kernel's build reads the standard library's sources: they are on
// its list, and a file a flag names (-pgo=FILE) is too.
func TestGoDepsAndFlagFiles(t *testing.T) {
	spec := seedSpec(t, "go", nil)
	k := build(t, spec)
	var std bool
	for _, d := range k.Deps {
		if strings.HasSuffix(d.Path, "/src/runtime/proc.go") && d.SHA256 != "" {
			std = true
		}
	}
	if !std {
		t.Errorf("the deps of a Go build do not list runtime/proc.go: %d deps", len(k.Deps))
	}
	prof := filepath.Join(t.TempDir(), "default.pgo")
	if err := os.WriteFile(prof, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	spec.Flags = []string{"-pgo=" + prof}
	first := build(t, spec) // go takes an empty profile as none
	if !slices.ContainsFunc(first.Deps, func(d Dep) bool { return d.Path == prof }) {
		t.Fatalf("the profile %s is not on the list", prof)
	}
	if again := build(t, spec); !again.Cached {
		t.Fatal("an unchanged profile rebuilt")
	}
	if err := os.WriteFile(prof, []byte("not a profile\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// The changed profile reaches go build, which refuses it: the build
	// was not taken from the cache.
	if k, err := Build(context.Background(), spec); err == nil {
		t.Errorf("a changed profile: cached=%v, no error from go build", k.Cached)
	}
}

func TestFlagFiles(t *testing.T) {
	dir := t.TempDir()
	f := func(name string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(name), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	obj, script, inc, resp, ov, repl := f("x.o"), f("x.ld"), f("x.h"), f("args.rsp"), f("ov.json"), f("repl.go")
	if err := os.WriteFile(resp, []byte(obj+" -O2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ov, []byte(`{"Replace":{"/somewhere/a.go":"`+repl+`"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		flags []string
		want  []string
	}{
		{"an object as an argument", []string{"-O2", obj}, []string{obj}},
		{"-include FILE", []string{"-include", inc}, []string{inc}},
		{"-Wl,-T,FILE", []string{"-Wl,-T," + script}, []string{script}},
		{"-Wl,--script=FILE", []string{"-Wl,--script=" + script}, []string{script}},
		{"a response file and what it names", []string{"@" + resp}, []string{resp, obj}},       // args.rsp < x.o
		{"-overlay=FILE and its replacements", []string{"-overlay=" + ov}, []string{ov, repl}}, // ov.json < repl.go
		{"-overlay FILE", []string{"-overlay", ov}, []string{ov, repl}},
		{"a relative name (the compiler runs in the build folder)", []string{"x.o"}, nil},
		{"a folder is not a file", []string{"-I" + dir}, nil},
	}
	for _, c := range cases {
		if got := flagFiles(c.flags); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: flagFiles(%q) = %q, want %q", c.name, c.flags, got, c.want)
		}
	}
}

func TestParseMakeDeps(t *testing.T) {
	in := "cell.o: /usr/include/stdc-predef.h /a\\ b/work.h \\\n  /x/$$y.h\ndriver.o: /usr/include/stdc-predef.h\n" +
		"kernel: \\\n  /usr/lib/crt1.o \\\n  /usr/lib/libm.so\n"
	want := []string{"/usr/include/stdc-predef.h", "/a b/work.h", "/x/$y.h", "/usr/include/stdc-predef.h", "/usr/lib/crt1.o", "/usr/lib/libm.so"}
	if got := parseMakeDeps([]byte(in)); !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// Issue 23 item 13: an output flag would make the compiler write the
// binary outside the cache and the build then fail; it is refused before
// anything is built, naming the flag, and nothing is written there.
func TestOutputFlagsRefused(t *testing.T) {
	for _, c := range []struct {
		lang  string
		flags []string
		names string
	}{
		{"go", []string{"-o", "PATH"}, "-o PATH"},
		{"go", []string{"-o=PATH"}, "-o=PATH"},
		{"go", []string{"--o", "PATH"}, "--o PATH"},
		{"c", []string{"-O2", "-o", "PATH"}, "-o PATH"},
		{"c", []string{"-oPATH"}, "-oPATH"},
		{"c", []string{"--output=PATH"}, "--output=PATH"},
		{"c", []string{"-Wl,-o,PATH"}, "-Wl,-o,PATH"},
		{"c", []string{"-Xlinker", "-o"}, "-Xlinker -o"},
	} {
		target := filepath.Join(t.TempDir(), "binary")
		flags := make([]string, len(c.flags))
		for i, f := range c.flags {
			flags[i] = strings.ReplaceAll(f, "PATH", target)
		}
		code := map[string]string{"c": "BENCH(a) {}\n", "go": "func BenchA() {}\n"}[c.lang]
		_, err := Build(context.Background(), Spec{Name: "k", Lang: c.lang, Code: code, Line: 2, Label: "Cell[1]", Flags: flags, CacheDir: t.TempDir()})
		var be *Error
		names := strings.ReplaceAll(c.names, "PATH", target)
		if !errors.As(err, &be) || be.Stage != "flags" || !strings.Contains(be.Message, "the flag "+names+" names an output file") {
			t.Errorf("%s %q: %v, want a flags error naming %q", c.lang, flags, err, names)
		}
		if _, err := os.Stat(target); err == nil {
			t.Errorf("%s %q: the binary was written to %s", c.lang, flags, target)
		}
	}
	// Flags that only look alike still build.
	if _, err := Build(context.Background(), Spec{Name: "k", Lang: "c", Code: "BENCH(a) {}\n", Line: 2, Label: "Cell[1]",
		Flags: []string{"-O2", "-Wl,-O1"}, CacheDir: t.TempDir()}); err != nil {
		t.Errorf("-Wl,-O1: %v", err)
	}
}
