package ipynb

import (
	"context"
	"strings"
	"testing"
)

// Checkpoint gets the notebook after every cell that ran, the failed one
// included, with the outputs so far: what benchbook run writes to disk so
// that a process that dies mid-run loses only the cell it was running.
func TestCheckpointAfterEveryCell(t *testing.T) {
	for _, allow := range []bool{false, true} {
		nb, eng := failingNotebook()
		var saved []string
		opt := RunOptions{AllowErrors: allow, Checkpoint: func(nb *Notebook) error {
			b, err := nb.Marshal()
			saved = append(saved, string(b))
			return err
		}}
		err := Execute(context.Background(), nb, eng, opt)
		if (err != nil) == allow {
			t.Fatalf("allow-errors %v: Execute returned %v", allow, err)
		}
		want := 2
		if allow {
			want = 3
		}
		if len(saved) != want {
			t.Fatalf("allow-errors %v: %d checkpoints, want %d", allow, len(saved), want)
		}
		if !strings.Contains(saved[0], `"ok\n"`) || strings.Contains(saved[0], "kernel seed not built") {
			t.Errorf("the first checkpoint is not the first cell's outputs alone:\n%s", saved[0])
		}
		if !strings.Contains(saved[1], `"ok\n"`) || !strings.Contains(saved[1], "kernel seed not built") {
			t.Errorf("the checkpoint after the failure lacks an output so far:\n%s", saved[1])
		}
	}
}
