package extgen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"
)

// SourceDocs reads the doc comments of struct fields from the Go source of
// the module at root (whose path is module): a field's description is its
// doc comment (or the comment after it on its line, or the comment of the
// field on the line before it, for a group), on one line.
func SourceDocs(root, module string) Docs {
	byPkg := map[string]map[string]string{} // package path -> Type.Field -> doc
	return func(owner reflect.Type, field string) string {
		pkg := owner.PkgPath()
		docs, ok := byPkg[pkg]
		if !ok {
			docs = map[string]string{}
			byPkg[pkg] = docs
			if rel, ok := strings.CutPrefix(pkg, module+"/"); ok {
				readDocs(filepath.Join(root, rel), docs)
			}
		}
		return docs[owner.Name()+"."+field]
	}
}

func readDocs(dir string, docs map[string]string) {
	entries, _ := os.ReadDir(dir)
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments)
		if err != nil {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return true
			}
			prev, prevEnd := "", -1
			for _, fl := range st.Fields.List {
				text := fl.Doc.Text()
				if text == "" {
					text = fl.Comment.Text()
				}
				text = strings.Join(strings.Fields(text), " ")
				// A field on the line after a documented one, with none of
				// its own, shares its comment (EmptyMaxTicks ..., EmptyMaxNS
				// the same in ns).
				if start := fset.Position(fl.Pos()).Line; text == "" && start == prevEnd+1 {
					text = prev
				}
				prev, prevEnd = text, fset.Position(fl.End()).Line
				for _, id := range fl.Names {
					if text != "" {
						docs[ts.Name.Name+"."+id.Name] = text
					}
				}
			}
			return false
		})
	}
}
