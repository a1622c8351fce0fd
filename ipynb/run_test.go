package ipynb

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/benchbook/benchbook/internal/protocol/benchtest"
	"github.com/benchbook/benchbook/ipynb/ipynbtest"
	"github.com/benchbook/benchbook/stdlib/display"
)

func TestCollectOutputs(t *testing.T) {
	for _, tc := range []struct {
		name string
		do   ipynbtest.Step
		want []string
	}{
		{"streams in pieces merge by name", func(pub display.Publisher) (map[string]any, error) {
			pub.Stream("stdout", "a")
			pub.Stream("stdout", "b\n")
			pub.Stream("stderr", "e\n")
			pub.Stream("stdout", "c")
			pub.Stream("stdout", "d")
			return nil, nil
		}, []string{`stream stdout "ab\n"`, `stream stderr "e\n"`, `stream stdout "cd"`}},
		{"a display and its update by id", func(pub display.Publisher) (map[string]any, error) {
			show(pub, "d1", "v1", false)
			pub.Stream("stdout", "between\n")
			show(pub, "d2", "other", false)
			show(pub, "d1", "v2", true)
			return nil, nil
		}, []string{"display_data text/plain=v2", `stream stdout "between\n"`, "display_data text/plain=other"}},
		{"an update reaches every output with its id", func(pub display.Publisher) (map[string]any, error) {
			show(pub, "d1", "v1", false)
			show(pub, "d1", "v1 again", false)
			show(pub, "d1", "v3", true)
			return nil, nil
		}, []string{"display_data text/plain=v3", "display_data text/plain=v3"}},
		{"an update of an unknown id adds nothing", func(pub display.Publisher) (map[string]any, error) {
			show(pub, "nope", "v", true)
			return nil, nil
		}, []string{}},
		{"clear without wait empties at once", func(pub display.Publisher) (map[string]any, error) {
			pub.Stream("stdout", "a\n")
			show(pub, "d1", "v1", false)
			pub.Clear(false)
			pub.Stream("stdout", "b\n")
			return nil, nil
		}, []string{`stream stdout "b\n"`}},
		{"clear at the end leaves nothing", func(pub display.Publisher) (map[string]any, error) {
			pub.Stream("stdout", "a\n")
			pub.Clear(false)
			return nil, nil
		}, []string{}},
		{"clear with wait keeps outputs until the next one", func(pub display.Publisher) (map[string]any, error) {
			pub.Stream("stdout", "a\n")
			pub.Clear(true)
			return nil, nil
		}, []string{`stream stdout "a\n"`}},
		{"clear with wait, then a stream of the same name replaces it", func(pub display.Publisher) (map[string]any, error) {
			pub.Stream("stdout", "10%\n")
			pub.Clear(true)
			pub.Stream("stdout", "20%\n")
			return nil, nil
		}, []string{`stream stdout "20%\n"`}},
		{"an update is not an output for a waiting clear", func(pub display.Publisher) (map[string]any, error) {
			show(pub, "p", "starting", false)
			pub.Clear(true)
			show(pub, "p", "half", true)
			return nil, nil
		}, []string{"display_data text/plain=half"}},
		{"the execute_result triggers a waiting clear", func(pub display.Publisher) (map[string]any, error) {
			pub.Stream("stdout", "old\n")
			pub.Clear(true)
			return ipynbtest.Plain("42"), nil
		}, []string{"execute_result[1] text/plain=42"}},
		{"the result bundle becomes execute_result", func(pub display.Publisher) (map[string]any, error) {
			pub.Stream("stdout", "x\n")
			return map[string]any{"text/plain": "42", "text/html": "<b>42</b>"}, nil
		}, []string{`stream stdout "x\n"`, "execute_result[1] text/html=<b>42</b> text/plain=42"}},
		{"an error keeps the outputs before it", func(pub display.Publisher) (map[string]any, error) {
			pub.Stream("stderr", "warn\n")
			return nil, &ipynbtest.ExecErr{Name: "NameError", Value: "x undefined", Traceback: []string{"Cell[1], line 1"}}
		}, []string{`stream stderr "warn\n"`, "error NameError: x undefined"}},
		{"a plain error is named Error", func(pub display.Publisher) (map[string]any, error) {
			return nil, errors.New("it broke")
		}, []string{"error Error: it broke"}},
		{"a panic becomes an error output", func(pub display.Publisher) (map[string]any, error) {
			panic("boom")
		}, []string{"error panic: boom"}},
		{"an entry that does not encode is left out and named", func(pub display.Publisher) (map[string]any, error) {
			pub.Display(display.Bundle{Data: map[string]any{"text/plain": "v", "application/json": make(chan int)}}, false)
			return nil, nil
		}, []string{"display_data text/plain=v", `stream stderr "benchbook: output entry application/json left out: json: unsupported type: chan int\n"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nb := New(NewCode("cell"))
			_ = Execute(context.Background(), nb, &ipynbtest.Engine{Steps: map[string]ipynbtest.Step{"cell": tc.do}}, RunOptions{AllowErrors: true})
			if got := view(nb.Cells[0].Outputs); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("outputs\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestUpdateFromALaterCell(t *testing.T) {
	nb := New(NewCode("show"), NewCode("update"))
	eng := &ipynbtest.Engine{Steps: map[string]ipynbtest.Step{
		"show":   func(pub display.Publisher) (map[string]any, error) { show(pub, "d", "v1", false); return nil, nil },
		"update": func(pub display.Publisher) (map[string]any, error) { show(pub, "d", "v2", true); return nil, nil },
	}}
	if err := Execute(context.Background(), nb, eng, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := view(nb.Cells[0].Outputs); !reflect.DeepEqual(got, []string{"display_data text/plain=v2"}) {
		t.Errorf("first cell after a later update: %q", got)
	}
	if len(nb.Cells[1].Outputs) != 0 {
		t.Errorf("the updating cell has outputs %q", view(nb.Cells[1].Outputs))
	}
}

func TestLatePublishingIsDropped(t *testing.T) {
	var kept display.Publisher
	nb := New(NewCode("a"), NewCode("b"))
	eng := &ipynbtest.Engine{Steps: map[string]ipynbtest.Step{
		"a": func(pub display.Publisher) (map[string]any, error) { kept = pub; return nil, nil },
		"b": func(pub display.Publisher) (map[string]any, error) {
			kept.Stream("stdout", "late\n")
			pub.Stream("stdout", "mine\n")
			return nil, nil
		},
	}}
	if err := Execute(context.Background(), nb, eng, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	if len(nb.Cells[0].Outputs) != 0 || !reflect.DeepEqual(view(nb.Cells[1].Outputs), []string{`stream stdout "mine\n"`}) {
		t.Errorf("late output landed: %q, %q", view(nb.Cells[0].Outputs), view(nb.Cells[1].Outputs))
	}
}

func failingNotebook() (*Notebook, *ipynbtest.Engine) {
	ok := func(pub display.Publisher) (map[string]any, error) { pub.Stream("stdout", "ok\n"); return nil, nil }
	nb := New(NewMarkdown("# intro"), NewCode("first"), NewCode("  \n"), NewCode("\n%bench seed quick\nmore"), NewCode("last"))
	nb.Cells[4].Outputs = []*Output{{Type: StreamOutput, Name: "stdout", Text: "stale\n"}}
	eng := &ipynbtest.Engine{Steps: map[string]ipynbtest.Step{"first": ok, "last": ok,
		"\n%bench seed quick\nmore": func(display.Publisher) (map[string]any, error) {
			return nil, &ipynbtest.ExecErr{Name: "BenchError", Value: "kernel seed not built", Traceback: []string{"a", "b"}}
		}}}
	return nb, eng
}

func TestAFailedCellStopsTheRun(t *testing.T) {
	nb, eng := failingNotebook()
	var progress bytes.Buffer
	err := Execute(context.Background(), nb, eng, RunOptions{Progress: &progress})
	var ce *CellError
	if !errors.As(err, &ce) || ce.Index != 3 || ce.FirstLine != "%bench seed quick" {
		t.Fatalf("Execute returned %v, want a CellError for cell 3 (%%bench seed quick)", err)
	}
	for _, s := range []string{"cell 3", "%bench seed quick", "kernel seed not built"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not say %q", err, s)
		}
	}
	if !reflect.DeepEqual(eng.Labels, []string{"Cell[1]", "Cell[2]"}) {
		t.Errorf("labels %v, want Cell[1] Cell[2] (the blank cell is skipped)", eng.Labels)
	}
	if nb.Cells[2].ExecutionCount != nil || *nb.Cells[3].ExecutionCount != 2 {
		t.Errorf("counts: blank cell %v, failed cell %v", nb.Cells[2].ExecutionCount, *nb.Cells[3].ExecutionCount)
	}
	if c := nb.Cells[4]; c.ExecutionCount != nil || len(c.Outputs) != 0 {
		t.Errorf("the cell after the failure has count %v and outputs %q", c.ExecutionCount, view(c.Outputs))
	}
	if o := nb.Cells[3].Outputs; len(o) != 1 || !reflect.DeepEqual(o[0].Traceback, []string{"a", "b"}) {
		t.Errorf("failed cell outputs %q", view(o))
	}
	lines := strings.Split(strings.TrimSpace(progress.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "[1/3] cell 1: first ... ok in ") ||
		!strings.HasPrefix(lines[1], "[2/3] cell 3: %bench seed quick ... FAILED in ") {
		t.Errorf("progress:\n%s", progress.String())
	}
}

func TestAllowErrorsRunsOn(t *testing.T) {
	nb, eng := failingNotebook()
	if err := Execute(context.Background(), nb, eng, RunOptions{AllowErrors: true}); err != nil {
		t.Fatalf("Execute with AllowErrors: %v", err)
	}
	if c := nb.Cells[4]; c.ExecutionCount == nil || *c.ExecutionCount != 3 || !reflect.DeepEqual(view(c.Outputs), []string{`stream stdout "ok\n"`}) {
		t.Errorf("last cell: count %v, outputs %q", c.ExecutionCount, view(c.Outputs))
	}
	if nb.Cells[0].Source != "# intro" || nb.Cells[0].Type != MarkdownCell {
		t.Errorf("the markdown cell changed: %+v", nb.Cells[0])
	}
}

func TestCancelledRunStops(t *testing.T) {
	nb, eng := failingNotebook()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Execute(ctx, nb, eng, RunOptions{AllowErrors: true}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run returned %v", err)
	}
	if len(eng.Labels) != 0 {
		t.Errorf("cells ran after cancel: %v", eng.Labels)
	}
}

func TestMetadataStamp(t *testing.T) {
	at := time.Date(2026, 11, 30, 10, 0, 0, 0, time.FixedZone("x", 3600))
	opt := RunOptions{Version: "0.1.0", Command: "benchbook run nb.ipynb", Now: func() time.Time { return at }}
	nb := New(NewCode("x"))
	eng := &ipynbtest.Engine{Steps: map[string]ipynbtest.Step{"x": func(display.Publisher) (map[string]any, error) { return nil, nil }}}
	if err := Execute(context.Background(), nb, eng, opt); err != nil {
		t.Fatal(err)
	}
	ks := nb.Metadata["kernelspec"].(map[string]any)
	if ks["name"] != "benchbook" || ks["display_name"] != "Go (benchbook)" || ks["language"] != "go" {
		t.Errorf("kernelspec %v", ks)
	}
	if li := nb.Metadata["language_info"].(map[string]any); li["name"] != "go" {
		t.Errorf("language_info %v", li)
	}
	want := map[string]any{"version": "0.1.0", "command": "benchbook run nb.ipynb", "executed_at": "2026-11-30T09:00:00Z"}
	if !reflect.DeepEqual(nb.Metadata["benchbook"], want) {
		t.Errorf("benchbook metadata %v, want %v", nb.Metadata["benchbook"], want)
	}
	nb.Metadata["kernelspec"] = map[string]any{"name": "mine"}
	_ = Execute(context.Background(), nb, eng, opt)
	if nb.Metadata["kernelspec"].(map[string]any)["name"] != "mine" {
		t.Error("an existing kernelspec was replaced")
	}
}

// A Go value in a bundle is stored as the JSON it encodes, and a uint64
// bootstrap seed above 2^53 survives (a float64 would round it).
func TestBundleValuesBecomeJSON(t *testing.T) {
	r := benchtest.Seed000(1)
	r.Protocol.BootstrapSeed = 1<<63 + 12345
	nb := New(NewCode("r"))
	eng := &ipynbtest.Engine{Steps: map[string]ipynbtest.Step{"r": func(display.Publisher) (map[string]any, error) {
		return map[string]any{display.MIMEText: "result", display.MIMEResult: r, display.MIMEPNG: []byte{1, 2, 3}}, nil
	}}}
	if err := Execute(context.Background(), nb, eng, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	data := nb.Cells[0].Outputs[0].Data
	m, ok := data[display.MIMEResult].(map[string]any)
	if !ok {
		t.Fatalf("result stored as %T, want map[string]any", data[display.MIMEResult])
	}
	if seed := m["protocol"].(map[string]any)["bootstrap_seed"].(json.Number); seed.String() != "9223372036854788153" {
		t.Errorf("bootstrap seed stored as %s", seed)
	}
	if data[display.MIMEPNG] != "AQID" {
		t.Errorf("[]byte PNG stored as %v, want base64 AQID", data[display.MIMEPNG])
	}
}
