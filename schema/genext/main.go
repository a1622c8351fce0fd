// Command genext adds to result.ext.schema.json every JSON field of the
// result (internal/result's types, by reflection) that it lacks, each with
// the schema its Go type implies and its doc comment as description
// (extgen.Fill), and keeps the rest as written. `go generate ./schema`
// runs it in schema/; it prints each field it added, which the author then
// reads (a range, an enum or a pattern the Go type cannot say is theirs
// to add). TestExtensionSchemaIsComplete fails until it has run.
package main

import (
	"fmt"
	"log"
	"os"
	"reflect"

	"github.com/benchbook/benchbook/internal/result"
	"github.com/benchbook/benchbook/schema/extgen"
)

const file = "result.ext.schema.json"

func main() {
	raw, err := os.ReadFile(file)
	if err != nil {
		log.Fatal(err)
	}
	root, err := extgen.Parse(raw)
	if err != nil {
		log.Fatalf("%s: %v", file, err)
	}
	added, err := extgen.Fill(root, reflect.TypeFor[result.Result](), "result", extgen.SourceDocs("..", "github.com/benchbook/benchbook"))
	if err != nil {
		log.Fatalf("%s: %v", file, err)
	}
	for _, p := range added {
		fmt.Printf("%s: added %s\n", file, p)
	}
	if err := os.WriteFile(file, root.Marshal(), 0o644); err != nil {
		log.Fatal(err)
	}
}
