package harness

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/benchbook/benchbook/internal/procs"

	"github.com/benchbook/benchbook/internal/asm"
)

// Spec is a native kernel as a cell defines it.
type Spec struct {
	Name  string   // kernel name from the magic line
	Lang  string   // "c" or "go"
	Code  string   // the cell without its magic line
	Line  int      // the cell line of Code's first line (2 when the magic is line 1)
	Label string   // how messages name the cell, e.g. "Cell[3]"
	Flags []string // compiler flags; nil means the defaults
	// CacheDir holds built kernels, keyed by a hash of everything that goes
	// into the binary; "" means DefaultCacheDir().
	CacheDir string
}

// DefaultFlags are the flags a kernel is built with when its magic line gives none.
func DefaultFlags(lang string) []string {
	if lang == "c" {
		return []string{"-std=c11", "-O2"}
	}
	return []string{}
}

// checkOutputFlags refuses a flag that names where the binary goes (-o
// PATH, -o=PATH, for C also -oPATH, --output, -Wl,-o,PATH, -Xlinker -o),
// before anything is built: benchbook writes the binary into its build
// cache and runs it from there; a second -o would make the compiler write
// it elsewhere, outside the cache, and the build fail after it was written.
func checkOutputFlags(lang string, flags []string) error {
	refuse := func(f string) error {
		return &Error{Stage: "flags", Message: fmt.Sprintf(
			"the flag %s names an output file: benchbook writes the binary into its build cache and runs it from there, so an output flag cannot be given; remove %s from the magic line", f, f)}
	}
	isOutput := func(f string) bool {
		name, _, _ := strings.Cut(f, "=")
		if name == "-o" || name == "--o" {
			return true
		}
		// gcc takes -oPATH and --output; no other option of gcc or ld
		// starts with -o (Go's -overlay does, hence C only).
		return lang == "c" && (name == "--output" || strings.HasPrefix(f, "-o"))
	}
	for i, f := range flags {
		switch {
		case isOutput(f) && (f == "-o" || f == "--o" || f == "--output") && i+1 < len(flags):
			return refuse(f + " " + flags[i+1])
		case isOutput(f):
			return refuse(f)
		case lang == "c" && strings.HasPrefix(f, "-Wl,"):
			for _, p := range strings.Split(strings.TrimPrefix(f, "-Wl,"), ",") {
				if isOutput(p) {
					return refuse(f)
				}
			}
		case lang == "c" && f == "-Xlinker" && i+1 < len(flags) && isOutput(flags[i+1]):
			return refuse(f + " " + flags[i+1])
		}
	}
	return nil
}

// Variant is one timed function of a built kernel.
type Variant struct {
	Name     string       `json:"name"`
	Line     int          `json:"line"`    // cell line of its BENCH or func
	Symbol   string       `json:"symbol"`  // the timed function in the binary
	Asm      string       `json:"asm"`     // its disassembly
	Callees  []string     `json:"callees"` // disassembly of functions its region calls (not inlined)
	Dead     bool         `json:"dead"`    // the region between the clock reads holds no work
	Hollow   bool         `json:"hollow"`  // the region holds only a counting loop
	Finding  string       `json:"finding"` // what the region holds, in words
	Analysis asm.Analysis `json:"analysis"`
	Func     asm.Func     `json:"func"` // the timed function, instruction by instruction

	// The batch function: k passes between two clock reads with a barrier
	// after each, where a batched sample comes from. Analysed like the
	// timed function with the loop over k set aside (asm.AnalyzeBatch).
	BatchSymbol   string       `json:"batch_symbol"`
	BatchAsm      string       `json:"batch_asm"`
	BatchDead     bool         `json:"batch_dead"`
	BatchHollow   bool         `json:"batch_hollow"`
	BatchFinding  string       `json:"batch_finding"`
	BatchAnalysis asm.Analysis `json:"batch_analysis"`

	// Ops is n of BENCH_OPS(name, n) (C) or //bench:ops n (Go): the
	// operations per pass of a variant that times each (build_latency.go).
	Ops string `json:"ops,omitempty"`
}

// Kernel is a built kernel: where its binary is and what its timed code is.
type Kernel struct {
	Name         string    `json:"name"`
	Lang         string    `json:"lang"`
	Compiler     string    `json:"compiler"` // first line of its --version / go version
	CompilerPath string    `json:"compiler_path"`
	Flags        []string  `json:"flags"`
	SourceSHA256 string    `json:"source_sha256"`
	BinarySHA256 string    `json:"binary_sha256"`
	Key          string    `json:"key"`
	Binary       string    `json:"binary"`
	Cached       bool      `json:"cached"`
	BuildMS      float64   `json:"build_ms"`
	Setup        bool      `json:"setup"`
	Variants     []Variant `json:"variants"`
	Warnings     string    `json:"warnings,omitempty"` // compiler output of a successful build
	// CacheWarning says why a cache entry was not trusted and the kernel
	// was rebuilt; it also opens Warnings, where the build's report shows it.
	CacheWarning string `json:"-"`
	Disassembler string `json:"disassembler"`
	Source       string `json:"source"`
	Label        string `json:"label"`

	// Inputs are what Key is a hash of (see cacheInputs; "deps" is the
	// digest of Deps): two builds of a kernel differ by the inputs that
	// differ.
	Inputs map[string]string `json:"inputs,omitempty"`
	// Deps are the files outside the build folder that reached the binary
	// (deps.go), each with its hash.
	Deps []Dep `json:"-"`
	// Rebuilt says which of the files that reached the previous build of
	// the same cell changed, when that is why it was built again.
	Rebuilt string `json:"-"`
}

// Variant returns the variant named name.
func (k *Kernel) Variant(name string) (*Variant, bool) {
	for i := range k.Variants {
		if k.Variants[i].Name == name {
			return &k.Variants[i], true
		}
	}
	return nil, false
}

// Names returns the variant names in definition order.
func (k *Kernel) Names() []string {
	names := make([]string, len(k.Variants))
	for i, v := range k.Variants {
		names[i] = v.Name
	}
	return names
}

// DefaultCacheDir is $BENCHBOOK_CACHE, else the user cache dir's benchbook
// folder ($XDG_CACHE_HOME or $HOME/.cache), else, with neither set, a
// folder of this user's own in the temporary folder: benchbook-cache-UID,
// created 0700 and refused if another user owns it or others may write
// in it (it holds binaries that are run).
func DefaultCacheDir() (string, error) {
	if d := os.Getenv("BENCHBOOK_CACHE"); d != "" {
		return d, nil
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "benchbook"), nil
	}
	return privateDir(filepath.Join(os.TempDir(), fmt.Sprintf("benchbook-cache-%d", os.Getuid())))
}

// privateDir makes dir with mode 0700, or checks that the one there is a
// folder of this user's that no one else may write in.
func privateDir(dir string) (string, error) {
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return "", fmt.Errorf("cache folder: %w", err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return "", fmt.Errorf("cache folder: %w", err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("cache folder %s: not a folder; remove it or set BENCHBOOK_CACHE", dir)
	}
	if why := untrusted(fi); why != "" {
		return "", fmt.Errorf("cache folder %s is not ours (%s): benchbook will not run binaries from it; remove it or set BENCHBOOK_CACHE", dir, why)
	}
	return dir, nil
}

// untrusted says why a cache file or folder cannot be trusted: another
// owner, or writable by group or others. "" when it can.
func untrusted(fi os.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return "no owner known"
	}
	if int(st.Uid) != os.Getuid() {
		return fmt.Sprintf("owned by uid %d, not %d", st.Uid, os.Getuid())
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return fmt.Sprintf("mode %04o: group or others may write", fi.Mode().Perm())
	}
	return ""
}

// Error is a build that failed: where and why, in the cell's own terms.
type Error struct {
	Stage   string // "magic", "source", "toolchain", "compile", "flags", "disassemble"
	Message string
	Line    int // cell line, 0 when unknown
}

func (e *Error) Error() string { return e.Message }

// toolchain is one language's way to build and disassemble.
type toolchain interface {
	identity(ctx context.Context) (compiler, path string, err error)
	prepare(spec Spec, dir string) ([]Variant, bool, error) // variants (names, lines, symbols) and whether there is a setup
	compile(ctx context.Context, spec Spec, flags []string, dir, out string) (warnings string, err error)
	disassemble(ctx context.Context, binary string) (funcs map[string]asm.Func, tool string, err error)
}

func toolchainFor(lang string) (toolchain, error) {
	switch lang {
	case "c":
		return cToolchain{}, nil
	case "go":
		return goToolchain{}, nil
	case "gotest":
		return gotestToolchain{}, nil
	}
	return nil, &Error{Stage: "magic", Message: fmt.Sprintf("unknown language %q: want c or go", lang)}
}

// Build builds spec natively, or takes it from the cache when nothing that
// goes into the binary changed, and analyses the assembly of every variant.
func Build(ctx context.Context, spec Spec) (*Kernel, error) {
	tc, err := toolchainFor(spec.Lang)
	if err != nil {
		return nil, err
	}
	flags := spec.Flags
	if flags == nil {
		flags = DefaultFlags(spec.Lang)
	}
	if err := checkOutputFlags(spec.Lang, flags); err != nil {
		return nil, err
	}
	compiler, path, err := tc.identity(ctx)
	if err != nil {
		return nil, err
	}
	// The toolchain writes what it compiles first (the cell with its #line
	// or //line, the generated Go main or TestMain, the harness): its hash
	// is in the key, so that a benchbook whose generator changed does not
	// take a binary built from the old text. A source error is the cell's
	// own, cached or not.
	dir, err := os.MkdirTemp("", "benchbook-build-") // 0700: the cell's source stays private
	if err != nil {
		return nil, fmt.Errorf("build %s: %w", spec.Name, err)
	}
	// Removed on return, or by the guard when this process is killed
	// first (root.go).
	defer procs.Track("dir", dir)()
	defer os.RemoveAll(dir)
	compileSpec := spec
	compileSpec.Label = compileLabel
	variants, setup, err := tc.prepare(compileSpec, dir)
	if err != nil {
		return nil, relabelError(err, spec.Label)
	}
	generated, err := treeSHA256(dir)
	if err != nil {
		return nil, fmt.Errorf("build %s: %w", spec.Name, err)
	}
	inputs := cacheInputs(spec, flags, compiler, path)
	inputs["generated"] = generated
	cacheDir := spec.CacheDir
	if cacheDir == "" {
		if cacheDir, err = DefaultCacheDir(); err != nil {
			return nil, err
		}
	}
	// Entries are never deleted: the previous build of a kernel stays
	// runnable beside the new one, for a before/after measured in one run.
	// The cell's own inputs name a manifest of the entries built from them,
	// each with the files outside the build that reached it (deps.go).
	c := cacheLookup{dir: cacheDir, manifest: manifestPath(cacheDir, cacheKey(inputs)), h: hasher{}}
	if k := c.find(); k != nil {
		k.Name, k.Label, k.Cached, k.Source = spec.Name, spec.Label, true, spec.Code
		k.Inputs = withDeps(inputs, k.Deps)
		relabel(k, spec.Label)
		return k, nil
	}
	p := prepared{dir: dir, variants: variants, setup: setup}
	k, err := compileAndStore(ctx, tc, spec, p, flags, compiler, path, inputs, &c)
	if err != nil {
		return nil, err
	}
	k.Rebuilt = c.changed
	if c.distrust != "" {
		k.CacheWarning = fmt.Sprintf("the cache entry %s was not trusted and was rebuilt: %s", c.distrustEntry, c.distrust)
		k.Warnings = strings.TrimSpace(k.CacheWarning + "\n" + k.Warnings)
	}
	return k, nil
}

// cacheLookup is the search of a build's manifest for an entry whose deps
// are unchanged, and what it found on the way.
type cacheLookup struct {
	dir, manifest string
	h             hasher
	changed       string // which deps of the latest entry changed, in words
	distrust      string // why an entry whose deps matched was not trusted
	distrustEntry string
}

// find returns the kernel of the first entry of the manifest whose deps
// all hash as they did and that can be trusted, or nil.
func (c *cacheLookup) find() *Kernel {
	for i, e := range loadManifest(c.manifest).Entries {
		if what := changes(e.Deps, c.h); what != "" {
			if i == 0 {
				c.changed = what
			}
			continue
		}
		entry := filepath.Join(c.dir, "build", e.Key)
		k, ok, distrust := loadCached(entry)
		if ok {
			k.Deps = e.Deps
			return k
		}
		if distrust != "" && c.distrust == "" {
			c.distrust, c.distrustEntry = distrust, entry
		}
	}
	return nil
}

// withDeps is the inputs with the digest of the deps: what an entry's key
// is a hash of.
func withDeps(inputs map[string]string, deps []Dep) map[string]string {
	in := make(map[string]string, len(inputs)+1)
	for k, v := range inputs {
		in[k] = v
	}
	in["deps"] = depsDigest(deps)
	return in
}

// prepared is what the toolchain wrote for a build (prepare) and found in
// the cell.
type prepared struct {
	dir      string
	variants []Variant
	setup    bool
}

// compileAndStore compiles what p holds, analyses it and stores it in the
// cache under a key of its inputs and the files the build read (deps),
// with its entry first in the manifest; an entry of that key that was not
// trusted is replaced. A build whose deps are not known (the compiler gave
// no list, or a file changed while it ran) is stored under a key no lookup
// finds, and the warnings say it will be built again.
func compileAndStore(ctx context.Context, tc toolchain, spec Spec, p prepared, flags []string, compiler, path string, inputs map[string]string,
	c *cacheLookup) (*Kernel, error) {
	// The label (Cell[3], a new one at each execution) names the cell in
	// messages only: the compiler sees a fixed file name in its #line and
	// //line directives, which would put the label in the binary (Go's
	// pcln tables, DWARF, __FILE__), and its messages are given back in
	// the label's terms.
	labelled := spec
	spec.Label = compileLabel
	start := time.Now()
	dir, variants, setup := p.dir, p.variants, p.setup
	out := filepath.Join(dir, "kernel")
	warnings, err := tc.compile(ctx, spec, flags, dir, out)
	if err != nil {
		return nil, relabelError(err, labelled.Label)
	}
	deps, depErr := buildDeps(ctx, tc, spec, flags, dir, start, c.h)
	if depErr != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		warnings = strings.TrimSpace(fmt.Sprintf("not cached, built again next time: %v\n%s", depErr, warnings))
	}
	k := &Kernel{Name: spec.Name, Lang: spec.Lang, Compiler: compiler, CompilerPath: path, Flags: flags,
		SourceSHA256: sha256Hex([]byte(spec.Code)), Inputs: withDeps(inputs, deps), Deps: deps, Setup: setup, Warnings: warnings,
		Source: spec.Code, Label: compileLabel, Variants: variants}
	if depErr != nil {
		k.Inputs["deps"] = "unknown " + procs.NewTag()
	}
	k.Key = cacheKey(k.Inputs)
	entry := filepath.Join(c.dir, "build", k.Key)
	if k.BinarySHA256, err = fileSHA256(out); err != nil {
		return nil, err
	}
	if err := analyse(ctx, tc, out, k); err != nil {
		return nil, err
	}
	k.BuildMS = float64(time.Since(start).Microseconds()) / 1000
	_, _, distrust := loadCached(entry)
	if err := store(entry, out, k, distrust != ""); err != nil {
		return nil, err
	}
	if depErr == nil {
		if err := saveManifest(c.manifest, manifestEntry{Key: k.Key, Deps: deps}); err != nil {
			return nil, err
		}
	}
	k.Label = labelled.Label
	relabel(k, labelled.Label)
	return k, nil
}

// buildDeps lists and hashes the files outside dir that the build that
// started at start read: those the toolchain names and those the flags
// name. It fails when the toolchain cannot say, or when one of them was
// changed after the build started (the binary may hold either version).
func buildDeps(ctx context.Context, tc toolchain, spec Spec, flags []string, dir string, start time.Time, h hasher) ([]Dep, error) {
	dl, ok := tc.(depLister)
	if !ok {
		return nil, errNoDepList
	}
	paths, err := dl.deps(ctx, spec, flags, dir)
	if err != nil {
		return nil, err
	}
	deps := hashDeps(append(flagFiles(flags), paths...), dir, h)
	for _, d := range deps {
		if fi, err := os.Stat(d.Path); err == nil && !fi.ModTime().Before(start) {
			return nil, fmt.Errorf("%s %s changed while the kernel was built", depKind(d.Path), d.Path)
		}
	}
	return deps, nil
}

// compileLabel is the file name the compiler sees for every cell.
const compileLabel = "benchbook-cell"

// relabelText puts the cell's label where the compiler wrote compileLabel.
func relabelText(s, label string) string {
	return strings.ReplaceAll(s, compileLabel+":", label+":")
}

// relabel gives a built kernel's messages and source positions the label.
func relabel(k *Kernel, label string) {
	k.Warnings = relabelText(k.Warnings, label)
	for i := range k.Variants {
		v := &k.Variants[i]
		v.Asm, v.Finding = relabelText(v.Asm, label), relabelText(v.Finding, label)
		v.BatchAsm, v.BatchFinding = relabelText(v.BatchAsm, label), relabelText(v.BatchFinding, label)
		for j := range v.Callees {
			v.Callees[j] = relabelText(v.Callees[j], label)
		}
		insts := append([]asm.Inst(nil), v.Func.Insts...)
		for j := range insts {
			insts[j].Source = relabelText(insts[j].Source, label)
		}
		v.Func.Insts = insts
	}
}

// relabelError gives a build error the cell's label.
func relabelError(err error, label string) error {
	var be *Error
	if errors.As(err, &be) {
		c := *be
		c.Message = relabelText(c.Message, label)
		return &c
	}
	return err
}

func analyse(ctx context.Context, tc toolchain, binary string, k *Kernel) error {
	funcs, tool, err := tc.disassemble(ctx, binary)
	if err != nil {
		return err
	}
	k.Disassembler = tool
	if a, ok := tc.(analyser); ok {
		return a.analyse(funcs, k)
	}
	for i := range k.Variants {
		v := &k.Variants[i]
		f, ok := funcs[v.Symbol]
		if !ok {
			return &Error{Stage: "disassemble", Message: fmt.Sprintf("timed function %s of variant %s not found in the binary", v.Symbol, v.Name), Line: v.Line}
		}
		a, err := asm.Analyze(f, false)
		v.Asm, v.Func, v.Analysis, v.Dead, v.Hollow, v.Finding = f.Text(), f, a, a.Dead, a.Hollow, a.Finding
		if err != nil {
			// A body that never returns (exit, abort) loses its second
			// clock read: the kernel still builds, and the finding says so.
			v.Finding = fmt.Sprintf("no timed region: %v; a body that does not return (exit, abort, longjmp) leaves the compiler no second clock read to keep", err)
		}
		for _, c := range a.Calls {
			if cf, ok := funcs[c]; ok && !strings.HasSuffix(c, "@plt") {
				v.Callees = append(v.Callees, cf.Text())
			}
		}
		analyseBatch(v, funcs)
		opsFinding(v) // build_latency.go
	}
	return nil
}

// keyEnv are the environment variables that reach a build of each
// language: the compiler's choice, its search paths, and Go's target.
var keyEnv = map[string][]string{
	"c":  {"CC", "CPATH", "C_INCLUDE_PATH", "LIBRARY_PATH", "COMPILER_PATH", "GCC_EXEC_PREFIX", "SOURCE_DATE_EPOCH"},
	"go": {"GOAMD64", "GOARCH", "GOOS", "GOARM64", "GO386", "GOEXPERIMENT", "GOROOT"},
}

// cacheInputs are what goes into the binary, by name: the language, the
// code (by hash) and the cell line it starts on (it reaches the binary
// through #line), the flags, the compiler's identity and path, the
// harness version and the environment that reaches the build. Never the
// label, which changes at each execution: the compile does not see it.
func cacheInputs(spec Spec, flags []string, compiler, path string) map[string]string {
	in := map[string]string{"lang": spec.Lang, "code": sha256Hex([]byte(spec.Code)), "line": fmt.Sprint(spec.Line),
		"flags": strings.Join(flags, " "), "compiler": compiler, "path": path, "harness": Version()}
	for _, k := range keyEnv[spec.Lang] {
		if v, ok := os.LookupEnv(k); ok {
			in["env "+k] = v
		}
	}
	return in
}

// cacheKey is a hash of the inputs.
func cacheKey(inputs map[string]string) string {
	names := make([]string, 0, len(inputs))
	for k := range inputs {
		names = append(names, k)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, k := range names {
		fmt.Fprintf(h, "%d:%s=%d:%s;", len(k), k, len(inputs[k]), inputs[k])
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// treeSHA256 is a hash of the files below dir, by relative name and
// content, in name order.
func treeSHA256(dir string) (string, error) {
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fmt.Fprintf(h, "%d:%s=%d:", len(rel), rel, len(b))
		h.Write(b)
		return nil
	})
	return hex.EncodeToString(h.Sum(nil)), err
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// loadCached returns the kernel stored in entry if it can be trusted: the
// entry, its build.json and its binary owned by this user and writable by
// no one else, and the binary the one build.json names by hash. distrust
// says why an entry that is there was not used.
func loadCached(entry string) (k *Kernel, ok bool, distrust string) {
	if _, err := os.Lstat(entry); err != nil {
		return nil, false, ""
	}
	for _, p := range []string{filepath.Dir(entry), entry, filepath.Join(entry, "build.json"), filepath.Join(entry, "kernel")} {
		fi, err := os.Lstat(p)
		if err != nil {
			return nil, false, err.Error()
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			return nil, false, p + " is a symbolic link"
		}
		if why := untrusted(fi); why != "" {
			return nil, false, p + " is " + why
		}
	}
	b, err := os.ReadFile(filepath.Join(entry, "build.json"))
	if err != nil {
		return nil, false, err.Error()
	}
	k = &Kernel{}
	if err := json.Unmarshal(b, k); err != nil {
		return nil, false, "build.json: " + err.Error()
	}
	k.Binary = filepath.Join(entry, "kernel")
	if sum, err := fileSHA256(k.Binary); err != nil || sum != k.BinarySHA256 {
		return nil, false, "the binary does not match its build.json"
	}
	return k, true, ""
}

// store moves the binary and its description into the cache entry atomically:
// both are written to a temporary folder that is renamed into place. An
// entry that is there and was not trusted (replace) is moved aside first and
// removed.
func store(entry, binary string, k *Kernel, replace bool) error {
	if err := os.MkdirAll(filepath.Dir(entry), 0o700); err != nil {
		return fmt.Errorf("build cache: %w", err)
	}
	if fi, err := os.Lstat(filepath.Dir(entry)); err != nil || untrusted(fi) != "" {
		return fmt.Errorf("build cache: %s is not a folder of this user's that only they may write in", filepath.Dir(entry))
	}
	if replace {
		aside, err := os.MkdirTemp(filepath.Dir(entry), ".untrusted-")
		if err != nil {
			return fmt.Errorf("build cache: %w", err)
		}
		defer os.RemoveAll(aside)
		if err := os.Rename(entry, filepath.Join(aside, "entry")); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("build cache: the untrusted entry cannot be moved aside: %w", err)
		}
	}
	tmp, err := os.MkdirTemp(filepath.Dir(entry), ".tmp-")
	if err != nil {
		return fmt.Errorf("build cache: %w", err)
	}
	defer procs.Track("dir", tmp)()
	defer os.RemoveAll(tmp)
	if err := copyFile(binary, filepath.Join(tmp, "kernel"), 0o700); err != nil {
		return fmt.Errorf("build cache: %w", err)
	}
	k.Binary = filepath.Join(entry, "kernel")
	b, err := json.MarshalIndent(k, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, "build.json"), b, 0o600); err != nil {
		return fmt.Errorf("build cache: %w", err)
	}
	if err := os.Rename(tmp, entry); err != nil && !errors.Is(err, os.ErrExist) {
		if _, _, distrust := loadCached(entry); distrust == "" {
			return nil // another build of the same key won the race
		}
		return fmt.Errorf("build cache: %w", err)
	}
	return nil
}

func copyFile(src, dst string, mode os.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// variantSet collects a kernel's variants in definition order and refuses
// a name used twice.
type variantSet struct {
	list []Variant
	seen map[string]int
}

func (vs *variantSet) add(name string, line int, symbol string) error {
	if vs.seen == nil {
		vs.seen = map[string]int{}
	}
	if prev, dup := vs.seen[name]; dup {
		return &Error{Stage: "source", Line: line, Message: fmt.Sprintf("variant %s is defined twice, at lines %d and %d", name, prev, line)}
	}
	vs.seen[name] = line
	vs.list = append(vs.list, Variant{Name: name, Line: line, Symbol: symbol})
	return nil
}

// done returns the variants, or an error when the kernel defines none;
// how says how a variant is written in the kernel's language.
func (vs *variantSet) done(kernel, how string) ([]Variant, error) {
	if len(vs.list) == 0 {
		return nil, &Error{Stage: "source", Message: fmt.Sprintf("kernel %s defines no variant: write %s for each one", kernel, how)}
	}
	return vs.list, nil
}
