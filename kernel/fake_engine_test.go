package kernel

import (
	"context"
	"fmt"
	"strings"
	"sync"
)

// fakeEngine is an Engine whose behaviour is picked by the code it runs:
//
//	echo TEXT   streams "out:TEXT" on stdout, returns TEXT as text/plain
//	streams     streams 2x25 lines from two goroutines at once
//	flood N S   streams N texts of S bytes
//	display     display_data, update_display_data, clear_output
//	fail        returns an error with a traceback
//	block       blocks until its context is cancelled, then fails
//	gate-fail   blocks until gate is closed, then fails
//	panic       panics
//	exprs       evaluates each user expression as its own name
type fakeEngine struct {
	gate    chan struct{}
	started chan string // receives the code of each execution as it starts
	// hang, when set, makes Shutdown block until it is closed.
	hang chan struct{}

	mu        sync.Mutex
	requests  []ExecuteRequest
	shutdowns []bool
}

func newFakeEngine() *fakeEngine {
	return &fakeEngine{gate: make(chan struct{}), started: make(chan string, 100)}
}

func (e *fakeEngine) Info() Info {
	return Info{
		Implementation: "fake", ImplementationVersion: "0.1",
		Language: LanguageInfo{Name: "go", Version: "1.26", Mimetype: "text/x-go", FileExtension: ".go"},
		Banner:   "fake engine", HelpLinks: []HelpLink{{Text: "Go", URL: "https://go.dev"}},
	}
}

func (e *fakeEngine) Execute(ctx context.Context, req ExecuteRequest, out Output) ExecuteResult {
	e.mu.Lock()
	e.requests = append(e.requests, req)
	e.mu.Unlock()
	e.started <- req.Code
	code := req.Code
	switch {
	case strings.HasPrefix(code, "echo "):
		text := strings.TrimPrefix(code, "echo ")
		out.Stream("stdout", "out:"+text)
		return ExecuteResult{Data: map[string]any{"text/plain": text}}
	case strings.HasPrefix(code, "flood "): // flood N SIZE: N streams of SIZE bytes
		var n, size int
		fmt.Sscan(strings.TrimPrefix(code, "flood "), &n, &size)
		text := strings.Repeat("f", size)
		for range n {
			out.Stream("stdout", text)
		}
		return ExecuteResult{}
	case code == "streams":
		var wg sync.WaitGroup
		for g := range 2 {
			wg.Go(func() {
				for range 25 {
					out.Stream("stdout", strings.Repeat("x", g+1))
				}
			})
		}
		wg.Wait()
		return ExecuteResult{}
	case code == "display":
		out.Display(map[string]any{"text/plain": "v1"}, nil, "d1", false)
		out.Display(map[string]any{"text/plain": "v2"}, nil, "d1", true)
		out.Clear(true)
		return ExecuteResult{}
	case code == "fail":
		return ExecuteResult{Err: &ExecError{Name: "ValueError", Value: "boom", Traceback: []string{"line 1: boom"}}}
	case code == "block":
		<-ctx.Done()
		return ExecuteResult{Err: &ExecError{Name: "Interrupted", Value: ctx.Err().Error()}}
	case code == "gate-fail":
		<-e.gate
		return ExecuteResult{Err: &ExecError{Name: "GateError", Value: "gate opened"}}
	case code == "panic":
		panic("engine bug")
	case code == "exprs":
		ue := map[string]any{}
		for name := range req.UserExpressions {
			ue[name] = map[string]any{"status": "ok", "data": map[string]any{"text/plain": name}, "metadata": map[string]any{}}
		}
		return ExecuteResult{UserExpressions: ue}
	}
	return ExecuteResult{}
}

func (e *fakeEngine) Complete(code string, cursor int) CompleteResult {
	return CompleteResult{Matches: []string{"fmt", "func"}, CursorStart: 0, CursorEnd: cursor}
}

func (e *fakeEngine) Inspect(code string, cursor, detail int) InspectResult {
	if code == "" {
		return InspectResult{}
	}
	return InspectResult{Found: true, Data: map[string]any{"text/plain": "doc of " + code}}
}

func (e *fakeEngine) IsComplete(code string) (string, string) {
	if strings.HasSuffix(code, "{") {
		return "incomplete", "\t"
	}
	return "complete", "ignored"
}

func (e *fakeEngine) Shutdown(restart bool) {
	e.mu.Lock()
	e.shutdowns = append(e.shutdowns, restart)
	e.mu.Unlock()
	if e.hang != nil {
		<-e.hang
	}
}

func (e *fakeEngine) shutdownCalls() []bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]bool(nil), e.shutdowns...)
}

func (e *fakeEngine) lastRequest() ExecuteRequest {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.requests[len(e.requests)-1]
}

func (e *fakeEngine) allRequests() []ExecuteRequest {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]ExecuteRequest(nil), e.requests...)
}
