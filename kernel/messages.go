package kernel

import (
	"encoding/json"
	"fmt"
)

// Content of the requests this kernel handles and of its replies and iopub
// messages. Field names follow the messaging protocol 5.3.

type executeRequest struct {
	Code            string            `json:"code"`
	Silent          bool              `json:"silent"`
	StoreHistory    bool              `json:"store_history"`
	UserExpressions map[string]string `json:"user_expressions"`
	AllowStdin      bool              `json:"allow_stdin"`
	StopOnError     bool              `json:"stop_on_error"`
}

type executeReply struct {
	Status          string         `json:"status"`
	ExecutionCount  int            `json:"execution_count"`
	UserExpressions map[string]any `json:"user_expressions"`
	Payload         []any          `json:"payload"`
}

type executeErrorReply struct {
	executeReply
	errorMessage
}

type errorReply struct {
	Status string `json:"status"`
	errorMessage
}

func newErrorReply(name, value string) errorReply {
	return errorReply{Status: "error", errorMessage: errorMessage{EName: name, EValue: value, Traceback: []string{}}}
}

type abortedReply struct {
	Status string `json:"status"`
}

type errorMessage struct {
	EName     string   `json:"ename"`
	EValue    string   `json:"evalue"`
	Traceback []string `json:"traceback"`
}

type executeInput struct {
	Code           string `json:"code"`
	ExecutionCount int    `json:"execution_count"`
}

type executeResult struct {
	ExecutionCount int            `json:"execution_count"`
	Data           map[string]any `json:"data"`
	Metadata       map[string]any `json:"metadata"`
}

type streamContent struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

type displayData struct {
	Data      map[string]any `json:"data"`
	Metadata  map[string]any `json:"metadata"`
	Transient map[string]any `json:"transient"`
}

type clearOutput struct {
	Wait bool `json:"wait"`
}

type statusContent struct {
	ExecutionState string `json:"execution_state"`
}

type completeRequest struct {
	Code      string `json:"code"`
	CursorPos int    `json:"cursor_pos"`
}

type completeReply struct {
	Status      string         `json:"status"`
	Matches     []string       `json:"matches"`
	CursorStart int            `json:"cursor_start"`
	CursorEnd   int            `json:"cursor_end"`
	Metadata    map[string]any `json:"metadata"`
}

type inspectRequest struct {
	Code        string `json:"code"`
	CursorPos   int    `json:"cursor_pos"`
	DetailLevel int    `json:"detail_level"`
}

type inspectReply struct {
	Status   string         `json:"status"`
	Found    bool           `json:"found"`
	Data     map[string]any `json:"data"`
	Metadata map[string]any `json:"metadata"`
}

type isCompleteRequest struct {
	Code string `json:"code"`
}

type isCompleteReply struct {
	Status string `json:"status"`
	Indent string `json:"indent,omitempty"`
}

type historyRequest struct {
	Output         bool   `json:"output"`
	Raw            bool   `json:"raw"`
	HistAccessType string `json:"hist_access_type"`
	Session        int    `json:"session"`
	Start          int    `json:"start"`
	Stop           *int   `json:"stop"`
	N              *int   `json:"n"`
	Pattern        string `json:"pattern"`
	Unique         bool   `json:"unique"`
}

type historyReply struct {
	Status  string `json:"status"`
	History []any  `json:"history"`
}

type commInfoRequest struct {
	TargetName string `json:"target_name"`
}

type commInfoReply struct {
	Status string         `json:"status"`
	Comms  map[string]any `json:"comms"`
}

type shutdownRequest struct {
	Restart bool `json:"restart"`
}

type shutdownReply struct {
	Status  string `json:"status"`
	Restart bool   `json:"restart"`
}

type interruptReply struct {
	Status string `json:"status"`
}

type kernelInfoReply struct {
	Status                string           `json:"status"`
	ProtocolVersion       string           `json:"protocol_version"`
	Implementation        string           `json:"implementation"`
	ImplementationVersion string           `json:"implementation_version"`
	LanguageInfo          languageInfoJSON `json:"language_info"`
	Banner                string           `json:"banner"`
	HelpLinks             []helpLinkJSON   `json:"help_links"`
	Debugger              bool             `json:"debugger"`
}

type languageInfoJSON struct {
	Name           string `json:"name"`
	Version        string `json:"version"`
	Mimetype       string `json:"mimetype"`
	FileExtension  string `json:"file_extension"`
	PygmentsLexer  string `json:"pygments_lexer,omitempty"`
	CodeMirrorMode string `json:"codemirror_mode,omitempty"`
}

type helpLinkJSON struct {
	Text string `json:"text"`
	URL  string `json:"url"`
}

// newKernelInfoReply builds kernel_info_reply content from the engine's Info.
func newKernelInfoReply(info Info) kernelInfoReply {
	links := make([]helpLinkJSON, 0, len(info.HelpLinks))
	for _, l := range info.HelpLinks {
		links = append(links, helpLinkJSON{Text: l.Text, URL: l.URL})
	}
	li := info.Language
	return kernelInfoReply{
		Status:                "ok",
		ProtocolVersion:       ProtocolVersion,
		Implementation:        info.Implementation,
		ImplementationVersion: info.ImplementationVersion,
		LanguageInfo: languageInfoJSON{
			Name: li.Name, Version: li.Version, Mimetype: li.Mimetype,
			FileExtension: li.FileExtension, PygmentsLexer: li.PygmentsLexer,
			CodeMirrorMode: li.CodeMirrorMode,
		},
		Banner:    info.Banner,
		HelpLinks: links,
	}
}

// decodeExecuteRequest decodes execute_request content with the protocol's
// defaults: store_history and stop_on_error true, store_history false when
// silent.
func decodeExecuteRequest(raw json.RawMessage) (executeRequest, error) {
	req := executeRequest{StoreHistory: true, StopOnError: true, AllowStdin: true}
	if err := decodeContent(raw, &req); err != nil {
		return req, err
	}
	if req.Silent {
		req.StoreHistory = false
	}
	return req, nil
}

// decodeContent decodes a request's content into dst.
func decodeContent(raw json.RawMessage, dst any) error {
	if err := json.Unmarshal(raw, dst); err != nil {
		return fmt.Errorf("%w in content: %w", ErrBadJSON, err)
	}
	return nil
}

// orEmpty returns m, or an empty map when m is nil, so JSON gets {} not null.
func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}
