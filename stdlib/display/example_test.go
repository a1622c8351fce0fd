package display_test

import (
	"fmt"
	"sort"

	"github.com/benchbook/benchbook/stdlib/display"
)

// printer is a Publisher that prints what a cell shows.
type printer struct{}

func (printer) Stream(name, text string) { fmt.Printf("%s: %s", name, text) }
func (printer) Clear(wait bool)          { fmt.Println("clear", wait) }
func (printer) Display(b display.Bundle, update bool) {
	var mimes []string
	for m := range b.Data {
		mimes = append(mimes, m)
	}
	sort.Strings(mimes)
	fmt.Println("display", mimes, "update", update, "id set", b.ID != "")
}

// What a glue cell shows goes through a Publisher (the kernel's iopub in a
// notebook): each output a MIME bundle with its text form beside it, under
// an id that a later Update replaces in place.
func ExampleDisplay() {
	d := display.New(printer{})
	id := d.Markdown("**1.25x slower**")
	d.HTML("<b>done</b>")
	if err := d.Update(id, "markdown", "**1.24x slower**"); err != nil {
		fmt.Println(err)
	}
	// Output:
	// display [text/markdown text/plain] update false id set true
	// display [text/html text/plain] update false id set true
	// display [text/markdown text/plain] update true id set true
}
