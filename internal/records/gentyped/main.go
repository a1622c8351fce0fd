// Command gentyped writes the typed records (records.Typed, from
// records.md) to the file its argument names: `go generate
// ./internal/records` runs it as `gentyped typed_gen.go`. It is built with
// the package's committed typed_gen.go, so that file must compile (if it is
// lost, check it out again and generate).
package main

import (
	"log"
	"os"

	"github.com/benchbook/benchbook/internal/records"
)

func main() {
	if len(os.Args) != 2 {
		log.Fatal("usage: gentyped FILE (go generate ./internal/records writes typed_gen.go)")
	}
	src, err := records.Typed()
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(os.Args[1], src, 0o644); err != nil {
		log.Fatal(err)
	}
}
