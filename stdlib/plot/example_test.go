package plot_test

import (
	"bytes"
	"fmt"

	"github.com/benchbook/benchbook/stdlib/plot"
)

// A figure of samples from a glue cell: the empirical distribution of two
// series of times in nanoseconds, as a PNG for the notebook (and an SVG),
// with its title as its text.
func ExampleECDFSeries() {
	fig, err := plot.ECDFSeries("two builds", map[string][]float64{
		"before": {1020, 1000, 1010, 990, 1050},
		"after":  {800, 810, 790, 805, 820},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(fig.Title)
	fmt.Println(bytes.HasPrefix(fig.PNG, []byte("\x89PNG\r\n\x1a\n")), bytes.Contains(fig.SVG, []byte("<svg")))
	fmt.Println(fig.Bundle()["text/plain"])
	// Output:
	// two builds
	// true true
	// two builds
}
