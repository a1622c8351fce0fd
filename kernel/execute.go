package kernel

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"
)

// execute handles an execute_request on the shell worker: execute_input,
// the engine's outputs, execute_result or error, then the reply. An
// execute_request that arrived before an earlier stop_on_error failure was
// replied is aborted instead.
func (k *kernel) execute(r request) {
	req, err := decodeExecuteRequest(r.msg.Content)
	if err != nil {
		k.log.Printf("shell: execute_request %s: %v", r.msg.Header.MsgID, err)
		k.replyError(r, "BadRequest", err.Error())
		return
	}
	if r.seq <= k.abortThrough {
		k.log.Printf("shell: aborting execute_request %s after an earlier error", r.msg.Header.MsgID)
		k.reply(r, abortedReply{Status: "aborted"})
		return
	}
	count := k.count + 1
	if req.StoreHistory {
		k.count = count
	}
	if !req.Silent {
		k.publish("execute_input", &r.msg, executeInput{Code: req.Code, ExecutionCount: count})
	}
	res := k.runEngine(ExecuteRequest{
		Code: req.Code, Silent: req.Silent, StoreHistory: req.StoreHistory,
		UserExpressions: req.UserExpressions, StopOnError: req.StopOnError,
		ExecutionCount: count,
	}, &output{k: k, parent: &r.msg, silent: req.Silent})
	if req.StoreHistory {
		k.hist.add(count, req.Code, plainText(res.Data))
	}
	if req.Silent {
		count = k.count
	}
	k.finishExecute(r, req, count, res)
}

// finishExecute publishes the result or error and sends the reply.
func (k *kernel) finishExecute(r request, req executeRequest, count int, res ExecuteResult) {
	ok := executeReply{Status: "ok", ExecutionCount: count, UserExpressions: orEmpty(res.UserExpressions), Payload: []any{}}
	if res.Err == nil {
		if res.Data != nil && !req.Silent {
			k.publish("execute_result", &r.msg, executeResult{ExecutionCount: count, Data: res.Data, Metadata: orEmpty(res.Metadata)})
		}
		k.reply(r, ok)
		return
	}
	em := errorMessage{EName: res.Err.Name, EValue: res.Err.Value, Traceback: res.Err.Traceback}
	if em.Traceback == nil {
		em.Traceback = []string{}
	}
	if !req.Silent {
		k.publish("error", &r.msg, em)
	}
	ok.Status = "error"
	k.reply(r, executeErrorReply{executeReply: ok, errorMessage: em})
	if req.StopOnError && !req.Silent {
		k.abortThrough = k.shellSeq.Load()
	}
}

// runEngine calls Engine.Execute with a context that an interrupt cancels;
// a panic in the engine becomes an error result.
func (k *kernel) runEngine(req ExecuteRequest, out Output) (res ExecuteResult) {
	ctx, cancel := context.WithCancel(context.Background())
	k.running.set(cancel)
	if k.closing() {
		cancel() // shutdown began before this execution registered
	}
	defer func() {
		k.running.set(nil)
		cancel()
		if p := recover(); p != nil {
			k.log.Printf("shell: engine panicked: %v", p)
			res = ExecuteResult{Err: &ExecError{
				Name: "panic", Value: fmt.Sprint(p),
				Traceback: strings.Split(strings.TrimSpace(string(debug.Stack())), "\n"),
			}}
		}
	}()
	return k.eng.Execute(ctx, req, out)
}

// plainText returns the text/plain entry of a bundle, nil when absent.
func plainText(data map[string]any) *string {
	if s, ok := data["text/plain"].(string); ok {
		return &s
	}
	return nil
}

// output publishes what an execution produces on iopub, with the execute
// request as parent. It is safe for concurrent use: each call encodes its
// message at once and queues it on the iopub outbox. A silent execution
// publishes nothing.
type output struct {
	k      *kernel
	parent *Message
	silent bool
}

func (o *output) Stream(name, text string) {
	if o.silent {
		return
	}
	o.k.publish("stream", o.parent, streamContent{Name: name, Text: text})
}

func (o *output) Display(data, metadata map[string]any, displayID string, update bool) {
	if o.silent {
		return
	}
	transient := map[string]any{}
	if displayID != "" {
		transient["display_id"] = displayID
	}
	msgType := "display_data"
	if update {
		if displayID == "" {
			o.k.log.Printf("shell: update_display_data without a display id dropped")
			return
		}
		msgType = "update_display_data"
	}
	o.k.publish(msgType, o.parent, displayData{Data: orEmpty(data), Metadata: orEmpty(metadata), Transient: transient})
}

func (o *output) Clear(wait bool) {
	if o.silent {
		return
	}
	o.k.publish("clear_output", o.parent, clearOutput{Wait: wait})
}
