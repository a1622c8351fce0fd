package glue_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/benchbook/benchbook/cells/glue"
	"github.com/benchbook/benchbook/stdlib/display"
)

// printer is a display.Publisher that prints what it receives.
type printer struct{}

func (printer) Stream(name, text string) {
	fmt.Printf("%s: %s", name, text)
}

func (printer) Display(b display.Bundle, update bool) {
	fmt.Println("display:", b.Data[display.MIMEText])
}

func (printer) Clear(bool) { fmt.Println("clear") }

func ExampleSession_Eval() {
	s, err := glue.New(glue.Options{})
	if err != nil {
		panic(err)
	}
	defer s.Close()
	ctx := context.Background()

	res, _ := s.Eval(ctx, "Cell [1]", "x := 20\nfmt.Println(\"computing\")\nx*2 + 2", printer{})
	fmt.Println("result:", res[display.MIMEText])

	_, err = s.Eval(ctx, "Cell [2]", "y := x\nz := w + y", printer{})
	fmt.Println(err)

	res, _ = s.Eval(ctx, "Cell [3]", "strings.Repeat(\"ab\", x/10)", printer{})
	fmt.Println("result:", res[display.MIMEText])
	// Output:
	// stdout: computing
	// result: 42
	// Cell [2], line 2: CompileError: undefined: w
	// result: "abab"
}

func ExampleSession_Complete() {
	s, err := glue.New(glue.Options{})
	if err != nil {
		panic(err)
	}
	defer s.Close()
	code := "strings.HasP"
	matches, start, end := s.Complete(code, len(code))
	fmt.Println(strings.Join(matches, " "), start, end)
	// Output: HasPrefix 8 12
}
