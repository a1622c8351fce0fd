package kernel

import (
	"context"

	"github.com/benchbook/benchbook/internal/execerr"
)

// Output receives what a request produces while it runs. The kernel turns each
// call into an iopub message whose parent is the request.
//
// The kernel's Output is safe for concurrent use: each call encodes its
// message before returning, so the maps passed may be reused afterwards but
// must not change during the call. Calls made after Execute returned still
// publish, with the same parent. A silent execution's Output publishes
// nothing.
type Output interface {
	// Stream sends text on "stdout" or "stderr".
	Stream(name, text string)
	// Display publishes a MIME bundle (display_data); with update it replaces
	// the output shown under displayID (update_display_data).
	Display(data, metadata map[string]any, displayID string, update bool)
	// Clear clears the cell's output (clear_output).
	Clear(wait bool)
}

// ExecuteRequest is the content of an execute_request, as the engine needs it.
type ExecuteRequest struct {
	Code            string
	Silent          bool
	StoreHistory    bool
	UserExpressions map[string]string
	StopOnError     bool
	// ExecutionCount is the count this execution is given (already incremented
	// when it stores history).
	ExecutionCount int
}

// ExecError is an error raised by executed code: the error output's ename,
// evalue and traceback (cells.Error is the same type).
type ExecError = execerr.Error

// ExecuteResult is what an execution produced besides its streamed outputs.
type ExecuteResult struct {
	// Data is the execute_result bundle, nil when the code has no value to show.
	Data     map[string]any
	Metadata map[string]any
	// Err is set when the execution failed.
	Err *ExecError
	// UserExpressions maps each requested name to its evaluated result:
	// {"status":"ok","data":{...},"metadata":{}} or an error dict.
	UserExpressions map[string]any
}

// CompleteResult answers a complete_request.
type CompleteResult struct {
	Matches     []string
	CursorStart int
	CursorEnd   int
	Metadata    map[string]any
}

// InspectResult answers an inspect_request.
type InspectResult struct {
	Found    bool
	Data     map[string]any
	Metadata map[string]any
}

// LanguageInfo and the rest of Info describe the engine in kernel_info_reply.
type LanguageInfo struct {
	Name           string
	Version        string
	Mimetype       string
	FileExtension  string
	PygmentsLexer  string
	CodeMirrorMode string
}

// HelpLink is one entry of kernel_info_reply's help_links.
type HelpLink struct{ Text, URL string }

// Info is the engine's part of kernel_info_reply.
type Info struct {
	Implementation        string
	ImplementationVersion string
	Language              LanguageInfo
	Banner                string
	HelpLinks             []HelpLink
}

// Engine executes code for the kernel. The kernel serialises calls to Execute;
// Complete, Inspect and IsComplete may be called while nothing executes.
// Interrupting an execution cancels its context.
//
// The kernel calls Execute, Complete, Inspect and IsComplete from one
// goroutine, in the order requests arrive on the shell socket. Info may be
// called at any time (kernel_info_request on the control socket), also
// while Execute runs. Shutdown is called once, after the running execution
// (if any) was cancelled and has returned or did not within a grace period;
// the kernel does not wait more than a few seconds for it. A panic in
// Execute becomes an error reply named "panic".
type Engine interface {
	Info() Info
	Execute(ctx context.Context, req ExecuteRequest, out Output) ExecuteResult
	Complete(code string, cursor int) CompleteResult
	Inspect(code string, cursor, detailLevel int) InspectResult
	// IsComplete returns "complete", "incomplete" (with the indent for the
	// next line), "invalid" or "unknown".
	IsComplete(code string) (status, indent string)
	// Shutdown releases what the engine holds; the kernel exits after it.
	Shutdown(restart bool)
}
