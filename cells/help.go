package cells

import (
	"fmt"
	"sort"
	"strings"

	"github.com/benchbook/benchbook/internal/protocol"
	"github.com/benchbook/benchbook/stdlib/display"
)

// Help is a help request: %help, %lsmagic, or a magic followed by "?"
// (%bench?, %%c?, %%go?). Its Name is the topic: "" for everything,
// "lsmagic", or the magic without its "?".
const Help Kind = 100

// magicHelp is the one description of each magic, shown by %help,
// %lsmagic and MAGIC?.
var magicHelp = []struct{ magic, usage, text string }{
	{"%%c", "%%c NAME [cc flags...]", "a C benchmark kernel, built natively with cc (default flags -std=c11 -O2; flags you give replace them, so add -O2 yourself). " +
		"BENCH(v) { body } defines variant v: its timed function holds the body between exactly two clock reads, so the compiler may delete a body whose result is unused. " +
		"BENCH_SETUP() { ... } runs once per process. bench_sink(x) claims to read x; bench_checksum(x, want) adds x to the variant's checksum, checked against want per pass. " +
		"BENCH_OPS(v, n) { ... BENCH_OP_BEGIN; op; BENCH_OP_END; ... } is a variant whose pass does n operations, each timed on its own: %bench reports the worst, p50 to p99.99 and the timer's overhead (docs/latency.md). " +
		"The output is the build and the assembly of every timed function (and of its batch loop), with the clock reads, the timed region and the loops marked."},
	{"%%go", "%%go NAME [go build flags...]", "the same in Go, built with go build: variants are func BenchXxx() (variant xxx), or func BenchXxx(op *bench.Op) with //bench:ops n on the line above (op.Begin() ... op.End() around each operation), setup is func Setup(), " +
		"and bench.Sink(x) / bench.Checksum(x, want) need no import."},
	{"%%gotest", "%%gotest NAME [go test flags...]", "ordinary Go benchmarks, func BenchmarkXxx(b *testing.B) (variant xxx), built with go test -c " +
		"and run under the same protocol: one pass is the benchmark at a fixed b.N, timed by testing itself (ResetTimer and StopTimer count). " +
		"Sub-benchmarks (b.Run) are refused."},
	{"%bench", "%bench NAME [key=value ...]", "runs the measurement protocol on kernel NAME: warmup discarded, variants interleaved in a random order per round with an A/A control, " +
		"an in-process series beside fresh processes, the cold pass and its page faults, the clock, the load and the machine; then tables, plots, the commentary, " +
		"and before/after measured in one run when NAME changed since it was last measured. The result is bound to the glue variable NAME (as= to rename)."},
	{"%help", "%help", "this list."},
	{"%lsmagic", "%lsmagic", "the magics, one per line."},
}

// parseHelp recognises a help request on a cell's first line.
func parseHelp(first string) (Magic, bool) {
	switch {
	case first == "%help" || first == "%help?" || first == "?":
		return Magic{Kind: Help}, true
	case first == "%lsmagic":
		return Magic{Kind: Help, Name: "lsmagic"}, true
	case strings.HasPrefix(first, "%") && strings.HasSuffix(first, "?") && !strings.Contains(first, " "):
		return Magic{Kind: Help, Name: strings.TrimSuffix(first, "?")}, true
	}
	return Magic{}, false
}

// HelpText is the help on topic: everything, the list of magics, or one
// magic ("%bench" also lists its keys).
func HelpText(topic string) (string, error) {
	var b strings.Builder
	switch topic {
	case "lsmagic":
		b.WriteString("Cell magics: %%c  %%go  %%gotest\nLine magics: %bench  %help  %lsmagic\n" +
			"Other lines: !command runs in /bin/sh; anything else is Go (glue), interpreted by yaegi.\n")
		return b.String(), nil
	case "":
		b.WriteString("benchbook cells. A cell's first line picks its kind; a cell without a magic is Go glue " +
			"(state lasts across cells; display, bench, stats, plot and report need no import).\n\n")
		for _, m := range magicHelp {
			fmt.Fprintf(&b, "%s\n    %s\n", m.usage, m.text)
		}
		b.WriteString("\n" + benchKeys())
		return b.String(), nil
	}
	for _, m := range magicHelp {
		if m.magic == topic {
			fmt.Fprintf(&b, "%s\n    %s\n", m.usage, m.text)
			if topic == "%bench" {
				b.WriteString("\n" + benchKeys())
			}
			return b.String(), nil
		}
	}
	return "", fmt.Errorf("no help on %s: the magics are %%%%c, %%%%go, %%%%gotest, %%bench, %%help and %%lsmagic", topic)
}

// benchKeys lists the keys of %bench with what each does.
func benchKeys() string {
	keys := protocol.ValidKeys()
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString("%bench keys:\n")
	for _, k := range keys {
		fmt.Fprintf(&b, "  %-9s %s\n", k, protocol.KeyHelp(k))
	}
	return b.String()
}

// help publishes the help on m's topic.
func (s *Session) help(label string, m Magic, pub display.Publisher) error {
	text, err := HelpText(m.Name)
	if err != nil {
		return cellError("MagicError", label, 1, err.Error())
	}
	pub.Stream("stdout", text)
	return nil
}
