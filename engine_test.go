package main

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/benchbook/benchbook/cells"
	"github.com/benchbook/benchbook/kernel"
)

// streams is a kernel.Output that keeps what is streamed.
type streams struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *streams) Stream(_, text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b.WriteString(text)
}
func (*streams) Display(map[string]any, map[string]any, string, bool) {}
func (*streams) Clear(bool)                                           {}

// A glue process started again by a user expression (the cell itself, a
// %help, needs none) is told to that cell, with what was lost. On main the
// expressions ran with an output that dropped everything (issue 23, item
// 2).
func TestUserExpressionRestartIsTold(t *testing.T) {
	dir := t.TempDir()
	s, err := cells.New(cells.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	e := engine{s: s, dir: dir}
	ctx := context.Background()
	for _, code := range []string{"lost := 1", `time.AfterFunc(50*time.Millisecond, func() { panic("late") })`} {
		if res := e.Execute(ctx, kernel.ExecuteRequest{Code: code}, &streams{}); res.Err != nil {
			t.Fatalf("%s: %+v", code, res.Err)
		}
	}
	time.Sleep(time.Second)
	out := &streams{}
	res := e.Execute(ctx, kernel.ExecuteRequest{Code: "%help", UserExpressions: map[string]string{"two": "1+1"}}, out)
	if r, _ := res.UserExpressions["two"].(map[string]any); r["status"] != "ok" {
		t.Fatalf("user expression: %v", res.UserExpressions)
	}
	for _, want := range []string{"The Go glue process was started again", "panic: late", "lost ("} {
		if !strings.Contains(out.b.String(), want) {
			t.Errorf("the cell was not told %q:\n%s", want, out.b.String())
		}
	}
}
