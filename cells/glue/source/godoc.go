package source

import (
	"bytes"
	"context"
	"go/ast"
	"go/build"
	"go/doc"
	"go/parser"
	"go/printer"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/benchbook/benchbook/stdlib"
)

// Docs reads the documentation of standard library packages from GOROOT's
// sources with go/doc, and that of the notebook packages from the sources
// the binary carries, once per package.
type Docs struct {
	rootOnce sync.Once
	root     string

	mu   sync.Mutex
	pkgs map[string]*PkgDoc // nil value: no sources
}

// PkgDoc is the documentation of one package.
type PkgDoc struct {
	fset *token.FileSet
	pkg  *doc.Package
}

// NewDocs reads the standard library's sources under root, or under the
// GOROOT it finds when root is "".
func NewDocs(root string) *Docs {
	d := &Docs{pkgs: map[string]*PkgDoc{}}
	if root != "" {
		d.rootOnce.Do(func() { d.root = root })
	}
	return d
}

// Goroot is the GOROOT whose sources d reads: the one given to NewDocs, or
// $GOROOT, then "go env GOROOT", then the one this binary was built with.
func (d *Docs) Goroot() string {
	d.rootOnce.Do(func() {
		if r := os.Getenv("GOROOT"); r != "" {
			d.root = r
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if out, err := exec.CommandContext(ctx, "go", "env", "GOROOT").Output(); err == nil {
			if r := strings.TrimSpace(string(out)); r != "" {
				d.root = r
				return
			}
		}
		d.root = runtime.GOROOT()
	})
	return d.root
}

// Load returns the documentation of a package, or nil when its sources are
// absent.
func (d *Docs) Load(importPath string) *PkgDoc {
	d.mu.Lock()
	defer d.mu.Unlock()
	if p, ok := d.pkgs[importPath]; ok {
		return p
	}
	p := d.parse(importPath)
	d.pkgs[importPath] = p
	return p
}

func (d *Docs) parse(importPath string) *PkgDoc {
	if rel, ok := strings.CutPrefix(importPath, stdlib.ImportPrefix); ok {
		return parseEmbedded(importPath, rel)
	}
	root := d.Goroot()
	if root == "" {
		return nil
	}
	dir := filepath.Join(root, "src", filepath.FromSlash(importPath))
	bp, err := build.Default.ImportDir(dir, 0)
	if err != nil {
		return nil
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range append(bp.GoFiles, bp.CgoFiles...) {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments)
		if err != nil {
			return nil
		}
		files = append(files, f)
	}
	var mode doc.Mode
	if importPath == "builtin" {
		mode = doc.AllDecls // its names are lower case
	}
	pkg, err := doc.NewFromFiles(fset, files, importPath, mode)
	if err != nil {
		return nil
	}
	return &PkgDoc{fset: fset, pkg: pkg}
}

// parseEmbedded reads the documentation of a notebook package from the
// sources the binary carries (stdlib.Sources).
func parseEmbedded(importPath, dir string) *PkgDoc {
	entries, err := fs.ReadDir(stdlib.Sources, dir)
	if err != nil {
		return nil
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := fs.ReadFile(stdlib.Sources, path.Join(dir, name))
		if err != nil {
			return nil
		}
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
		if err != nil {
			return nil
		}
		files = append(files, f)
	}
	pkg, err := doc.NewFromFiles(fset, files, importPath)
	if err != nil {
		return nil
	}
	return &PkgDoc{fset: fset, pkg: pkg}
}

// Symbol returns the declaration and the doc comment of a package member.
func (p *PkgDoc) Symbol(name string) (decl, text string, ok bool) {
	for _, f := range p.pkg.Funcs {
		if f.Name == name {
			return p.funcDecl(f.Decl), p.text(f.Doc), true
		}
	}
	for _, t := range p.pkg.Types {
		if t.Name == name {
			return p.node(t.Decl), p.text(t.Doc), true
		}
		for _, f := range t.Funcs {
			if f.Name == name {
				return p.funcDecl(f.Decl), p.text(f.Doc), true
			}
		}
		if d, txt, ok := p.value(append(t.Consts, t.Vars...), name); ok {
			return d, txt, true
		}
	}
	return p.value(append(p.pkg.Consts, p.pkg.Vars...), name)
}

func (p *PkgDoc) value(vals []*doc.Value, name string) (string, string, bool) {
	for _, v := range vals {
		for _, n := range v.Names {
			if n == name {
				return p.node(v.Decl), p.text(v.Doc), true
			}
		}
	}
	return "", "", false
}

// funcDecl prints a func declaration without its body.
func (p *PkgDoc) funcDecl(fd *ast.FuncDecl) string {
	short := *fd
	short.Body, short.Doc = nil, nil
	return p.node(&short)
}

func (p *PkgDoc) node(n ast.Node) string {
	var b bytes.Buffer
	_ = printer.Fprint(&b, p.fset, n)
	lines := strings.Split(b.String(), "\n")
	if len(lines) > 40 {
		lines = append(lines[:40], "\t...")
	}
	return strings.Join(lines, "\n")
}

func (p *PkgDoc) text(comment string) string {
	return strings.TrimSpace(string(p.pkg.Text(comment)))
}

// Synopsis is the first sentence of the package documentation.
func (p *PkgDoc) Synopsis() string {
	return p.pkg.Synopsis(p.pkg.Doc)
}
