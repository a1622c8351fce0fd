package harness

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"

	"github.com/benchbook/benchbook/internal/procs"
)

// What reaches a binary besides the cell and the harness (the generated
// tree, hashed as "generated") is every file outside the build folder that
// the build read: the headers the preprocessor included (-include and
// -imacros files too), the objects, archives, shared libraries and linker
// scripts the linker read, for Go the sources of every package the kernel
// imports (the standard library included) and its modules' go.mod and
// go.sum, and every file a flag names (-pgo=FILE, an -overlay and the files
// it maps to, a response file @FILE, an object given as a flag). The
// compiler says which files it read (a dependency list: gcc's
// SUNPRO_DEPENDENCIES, ld's --dependency-file, go list -deps); benchbook
// hashes each by content after the build and keeps the list in a manifest
// beside the cache entries (cache/deps/BASE.json, BASE the key of the
// cell's own inputs). A build whose own inputs are unchanged takes an entry
// of its manifest only when every file on that entry's list hashes as it
// did; otherwise it is rebuilt, and the build says which file changed.
//
// Not covered: a header that appears, after the build, in a folder of the
// search path ahead of the one the compiler took it from (the list names
// the file found, not the folders searched before it).

// Dep is one file outside the build folder that reached a build.
type Dep struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"` // "" when the file could not be read
}

// manifest lists the cache entries built from one set of cell inputs, most
// recent first, each with the files that reached its binary.
type manifest struct {
	Entries []manifestEntry `json:"entries"`
}

type manifestEntry struct {
	Key  string `json:"key"`
	Deps []Dep  `json:"deps"`
}

// maxManifest bounds the entries a manifest keeps (a header edited back
// and forth finds its earlier builds).
const maxManifest = 16

// errNoDepList is a build whose compiler gave no list of the files it read.
var errNoDepList = errors.New("the compiler gave no list of the files it read")

// depLister is a toolchain that can say which files a build it just made
// read, by path (relative paths are relative to dir).
type depLister interface {
	deps(ctx context.Context, spec Spec, flags []string, dir string) ([]string, error)
}

// manifestPath is the manifest of the cell inputs whose key is base.
func manifestPath(cacheDir, base string) string {
	return filepath.Join(cacheDir, "deps", base+".json")
}

// loadManifest reads the manifest at path; a manifest that is missing or
// cannot be trusted (a link, another owner, writable by others) is empty.
func loadManifest(path string) manifest {
	var m manifest
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || untrusted(fi) != "" {
		return m
	}
	b, err := procs.ReadRegular(path, 64<<20)
	if err != nil {
		return manifest{}
	}
	if json.Unmarshal(b, &m) != nil {
		return manifest{}
	}
	return m
}

// saveManifest puts e first in the manifest at path (dropping an older
// entry of the same key) and writes it atomically.
func saveManifest(path string, e manifestEntry) error {
	m := loadManifest(path)
	m.Entries = slices.DeleteFunc(m.Entries, func(old manifestEntry) bool { return old.Key == e.Key })
	m.Entries = append([]manifestEntry{e}, m.Entries...)
	if len(m.Entries) > maxManifest {
		m.Entries = m.Entries[:maxManifest]
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("build cache: %w", err)
	}
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() || untrusted(fi) != "" {
		return fmt.Errorf("build cache: %s is not a folder of this user's that only they may write in", dir)
	}
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".manifest-")
	if err != nil {
		return fmt.Errorf("build cache: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("build cache: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("build cache: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("build cache: %w", err)
	}
	return nil
}

// hasher hashes files by content, each once per build.
type hasher map[string]string

// sum is the SHA-256 of the file at path, "" when it cannot be read as a
// regular file.
func (h hasher) sum(path string) string {
	if s, ok := h[path]; ok {
		return s
	}
	s := ""
	if f, err := openDep(path); err == nil {
		d := sha256.New()
		if _, err := io.Copy(d, f); err == nil {
			s = hex.EncodeToString(d.Sum(nil))
		}
		f.Close()
	}
	h[path] = s
	return s
}

// openDep opens path for reading without blocking (a FIFO or a device
// would hang a plain open or read) and refuses what is not a regular file.
func openDep(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	return procs.RegularOnly(f)
}

// readDep reads a regular file of at most limit bytes (a dependency may be
// a link: it is followed, where procs.ReadRegular refuses one).
func readDep(path string, limit int64) ([]byte, error) {
	f, err := openDep(path)
	if err != nil {
		return nil, err
	}
	return procs.ReadAllLimit(f, limit)
}

// hashDeps makes the list of a build's deps: the paths made absolute
// (relative to dir), those inside dir left out (the generated tree is
// hashed as a whole), each once, in name order, with its hash.
func hashDeps(paths []string, dir string, h hasher) []Dep {
	seen := map[string]bool{}
	var deps []Dep
	for _, p := range paths {
		if p == "" {
			continue
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		p = filepath.Clean(p)
		if rel, err := filepath.Rel(dir, p); err == nil && !strings.HasPrefix(rel, "..") {
			continue
		}
		if seen[p] {
			continue
		}
		seen[p] = true
		deps = append(deps, Dep{Path: p, SHA256: h.sum(p)})
	}
	sort.Slice(deps, func(i, j int) bool { return deps[i].Path < deps[j].Path })
	return deps
}

// depsDigest is one hash of a list of deps, part of the entry's key.
func depsDigest(deps []Dep) string {
	d := sha256.New()
	for _, dep := range deps {
		fmt.Fprintf(d, "%d:%s=%s;", len(dep.Path), dep.Path, dep.SHA256)
	}
	return hex.EncodeToString(d.Sum(nil))
}

// changes says which deps of a stored entry no longer hash as they did,
// in words ("header /x/work.h changed"); "" when none does.
func changes(deps []Dep, h hasher) string {
	var changed []string
	for _, d := range deps {
		now := h.sum(d.Path)
		if now == d.SHA256 {
			continue
		}
		what := "changed"
		switch {
		case now == "":
			what = "is gone"
		case d.SHA256 == "":
			what = "appeared"
		}
		changed = append(changed, fmt.Sprintf("%s %s %s", depKind(d.Path), d.Path, what))
	}
	switch {
	case len(changed) == 0:
		return ""
	case len(changed) > 3:
		return fmt.Sprintf("%s, and %d more files", strings.Join(changed[:3], ", "), len(changed)-3)
	}
	return strings.Join(changed, ", ")
}

// depKind names what a file is to a build, by its name.
func depKind(path string) string {
	base := filepath.Base(path)
	ext := filepath.Ext(base)
	switch {
	case slices.Contains([]string{".h", ".hh", ".hpp", ".hxx", ".inc", ".def"}, ext):
		return "header"
	case ext == ".o" || ext == ".obj":
		return "object"
	case ext == ".a" || ext == ".so" || strings.Contains(base, ".so."):
		return "library"
	case ext == ".go":
		return "Go file"
	case ext == ".c" || ext == ".s" || ext == ".S" || ext == ".cc" || ext == ".cpp":
		return "source"
	case ext == ".ld" || ext == ".lds":
		return "linker script"
	case base == "go.mod" || base == "go.sum":
		return base
	}
	return "file"
}

// parseMakeDeps reads the prerequisites of make rules as compilers write
// them ("a.o: a.c work.h \" and more lines): backslash-newline joins
// lines, "\ " is a space in a name, "$$" a dollar; the targets (before the
// first ": " of each rule) are left out.
func parseMakeDeps(b []byte) []string {
	text := strings.ReplaceAll(string(b), "\\\r\n", " ")
	text = strings.ReplaceAll(text, "\\\n", " ")
	var out []string
	for _, line := range strings.Split(text, "\n") {
		words := splitMakeWords(line)
		for i, w := range words {
			if strings.HasSuffix(w, ":") { // the target; prerequisites follow
				out = append(out, words[i+1:]...)
				break
			}
		}
	}
	return out
}

// splitMakeWords splits a make line on unescaped blanks.
func splitMakeWords(line string) []string {
	var words []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			words = append(words, cur.String())
			cur.Reset()
		}
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\\' && i+1 < len(line) && (line[i+1] == ' ' || line[i+1] == '#' || line[i+1] == '\\'):
			cur.WriteByte(line[i+1])
			i++
		case c == '$' && i+1 < len(line) && line[i+1] == '$':
			cur.WriteByte('$')
			i++
		case c == ' ' || c == '\t':
			flush()
		default:
			cur.WriteByte(c)
		}
	}
	flush()
	return words
}

// flagFiles are the files the flags name by absolute path (the compiler
// runs in the build folder, where a relative name finds only generated
// files): a flag that is a path of a regular file, or whose value (after "=", or a piece of -Wl,a,b) is; a
// response file @FILE and the words in it; an -overlay's JSON and the files
// it maps to. They come sorted, each once.
func flagFiles(flags []string) []string {
	var out []string
	var add func(cand string, depth int)
	add = func(cand string, depth int) {
		if cand == "" || depth > 2 {
			return
		}
		if resp, ok := strings.CutPrefix(cand, "@"); ok && filepath.IsAbs(resp) && isRegular(resp) {
			out = append(out, resp)
			if b, err := readDep(resp, 1<<20); err == nil {
				for _, w := range strings.Fields(string(b)) {
					add(strings.Trim(w, `"'`), depth+1)
				}
			}
			return
		}
		if filepath.IsAbs(cand) && isRegular(cand) {
			out = append(out, cand)
		}
	}
	for i, f := range flags {
		add(f, 0)
		name, val, hasVal := strings.Cut(f, "=")
		if hasVal {
			add(val, 0)
		}
		if pieces, ok := strings.CutPrefix(f, "-Wl,"); ok {
			for _, p := range strings.Split(pieces, ",") {
				add(p, 0)
				if _, v, ok := strings.Cut(p, "="); ok {
					add(v, 0)
				}
			}
		}
		overlay := ""
		switch {
		case (name == "-overlay" || name == "--overlay") && hasVal:
			overlay = val
		case (f == "-overlay" || f == "--overlay") && i+1 < len(flags):
			overlay = flags[i+1]
		}
		if overlay != "" {
			out = append(out, overlayFiles(overlay)...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// overlayFiles are the replacement files of a go build -overlay file.
func overlayFiles(path string) []string {
	b, err := readDep(path, 16<<20)
	if err != nil {
		return nil
	}
	var o struct{ Replace map[string]string }
	if json.Unmarshal(b, &o) != nil {
		return nil
	}
	var out []string
	for _, v := range o.Replace {
		if v != "" {
			out = append(out, v)
		}
	}
	sort.Strings(out)
	return out
}

// isRegular says whether path names a regular file (through links).
func isRegular(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

// readDepFile reads a dependency file a compiler wrote in dir; errNoDepList
// when it wrote none.
func readDepFile(dir, name string) ([]string, error) {
	b, err := readDep(filepath.Join(dir, name), 64<<20)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", name, errNoDepList)
	}
	if err != nil {
		return nil, err
	}
	return parseMakeDeps(bytes.TrimSpace(b)), nil
}
