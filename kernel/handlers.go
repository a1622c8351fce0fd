package kernel

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// username is the header username of the messages the kernel sends.
const username = "kernel"

// after is run by handle once the idle status is out (nil: nothing).
type after func()

// handle brackets a request with busy and idle on iopub, runs dispatch, and
// turns a panic into an error reply so the kernel survives it.
func (k *kernel) handle(r request, dispatch func(request) after) {
	k.publishStatus("busy", &r.msg)
	var then after
	func() {
		defer func() {
			if p := recover(); p != nil {
				k.log.Printf("%s: panic handling %s: %v\n%s", r.channel, r.msg.Header.MsgType, p, debug.Stack())
				k.replyError(r, "InternalError", fmt.Sprint(p))
			}
		}()
		then = dispatch(r)
	}()
	k.publishStatus("idle", &r.msg)
	if then != nil {
		then()
	}
}

// dispatchShell routes a shell request to its handler.
func (k *kernel) dispatchShell(r request) after {
	switch r.msg.Header.MsgType {
	case "execute_request":
		k.execute(r)
	case "kernel_info_request":
		k.kernelInfo(r)
	case "complete_request":
		k.complete(r)
	case "inspect_request":
		k.inspect(r)
	case "is_complete_request":
		k.isComplete(r)
	case "history_request":
		k.historyRequest(r)
	case "comm_info_request":
		k.commInfo(r)
	case "shutdown_request":
		return k.shutdownRequest(r)
	default:
		k.log.Printf("shell: ignoring unknown message type %q", r.msg.Header.MsgType)
	}
	return nil
}

// dispatchControl routes a control request. Requests that need the shell
// worker's state or an idle engine are not served on control.
func (k *kernel) dispatchControl(r request) after {
	switch r.msg.Header.MsgType {
	case "interrupt_request":
		k.interruptRequest(r)
	case "shutdown_request":
		return k.shutdownRequest(r)
	case "kernel_info_request":
		k.kernelInfo(r)
	case "comm_info_request":
		k.commInfo(r)
	default:
		k.log.Printf("control: ignoring message type %q", r.msg.Header.MsgType)
	}
	return nil
}

// encode builds and signs a message of msgType with parent as its parent.
func (k *kernel) encode(ids [][]byte, msgType string, parent *Message, content any) ([][]byte, error) {
	o := Outgoing{Identities: ids, Header: NewHeader(msgType, k.session, username), Content: content}
	if parent != nil {
		o.Parent = parent.RawHeader
	}
	return k.codec.Encode(o)
}

// publish sends an iopub message whose parent is parent.
func (k *kernel) publish(msgType string, parent *Message, content any) {
	topic := []byte("kernel." + k.session + "." + msgType)
	frames, err := k.encode([][]byte{topic}, msgType, parent, content)
	if err != nil {
		k.log.Printf("iopub: dropping %s: %v", msgType, err)
		return
	}
	k.iopubOut.put(frames)
}

func (k *kernel) publishStatus(state string, parent *Message) {
	k.publish("status", parent, statusContent{ExecutionState: state})
}

// replyType is the reply's message type for a request's type.
func replyType(requestType string) string {
	return strings.TrimSuffix(requestType, "_request") + "_reply"
}

// reply sends content as the reply to r on the socket r came in on. If the
// content cannot be encoded, an error reply goes instead so the client is
// not left waiting.
func (k *kernel) reply(r request, content any) {
	t := replyType(r.msg.Header.MsgType)
	frames, err := k.encode(r.msg.Identities, t, &r.msg, content)
	if err != nil {
		k.log.Printf("%s: replying with an error: %v", r.channel, err)
		frames, err = k.encode(r.msg.Identities, t, &r.msg, newErrorReply("EncodingError", err.Error()))
		if err != nil {
			k.log.Printf("%s: dropping %s: %v", r.channel, t, err)
			return
		}
	}
	r.out.put(frames)
}

// replyError sends a reply with status error, ename name and evalue value.
func (k *kernel) replyError(r request, name, value string) {
	k.reply(r, newErrorReply(name, value))
}

func (k *kernel) kernelInfo(r request) {
	k.reply(r, newKernelInfoReply(k.eng.Info()))
}

func (k *kernel) complete(r request) {
	var req completeRequest
	if err := decodeContent(r.msg.Content, &req); err != nil {
		k.replyError(r, "BadRequest", err.Error())
		return
	}
	res := k.eng.Complete(req.Code, req.CursorPos)
	matches := res.Matches
	if matches == nil {
		matches = []string{}
	}
	k.reply(r, completeReply{
		Status: "ok", Matches: matches, CursorStart: res.CursorStart,
		CursorEnd: res.CursorEnd, Metadata: orEmpty(res.Metadata),
	})
}

func (k *kernel) inspect(r request) {
	var req inspectRequest
	if err := decodeContent(r.msg.Content, &req); err != nil {
		k.replyError(r, "BadRequest", err.Error())
		return
	}
	res := k.eng.Inspect(req.Code, req.CursorPos, req.DetailLevel)
	k.reply(r, inspectReply{Status: "ok", Found: res.Found, Data: orEmpty(res.Data), Metadata: orEmpty(res.Metadata)})
}

func (k *kernel) isComplete(r request) {
	var req isCompleteRequest
	if err := decodeContent(r.msg.Content, &req); err != nil {
		k.replyError(r, "BadRequest", err.Error())
		return
	}
	status, indent := k.eng.IsComplete(req.Code)
	if status != "incomplete" {
		indent = ""
	}
	k.reply(r, isCompleteReply{Status: status, Indent: indent})
}

func (k *kernel) historyRequest(r request) {
	var req historyRequest
	if err := decodeContent(r.msg.Content, &req); err != nil {
		k.replyError(r, "BadRequest", err.Error())
		return
	}
	k.reply(r, historyReply{Status: "ok", History: k.hist.query(req)})
}

func (k *kernel) commInfo(r request) {
	k.reply(r, commInfoReply{Status: "ok", Comms: map[string]any{}})
}

// shutdownRequest replies, echoing restart, and asks serve to stop once the
// idle status is out.
func (k *kernel) shutdownRequest(r request) after {
	var req shutdownRequest
	if err := decodeContent(r.msg.Content, &req); err != nil {
		k.log.Printf("%s: shutdown_request: %v; shutting down anyway", r.channel, err)
	}
	k.reply(r, shutdownReply{Status: "ok", Restart: req.Restart})
	return func() { k.requestStop(req.Restart) }
}

// interruptRequest cancels the running execution, if any, and replies.
func (k *kernel) interruptRequest(r request) {
	if !k.running.interrupt() {
		k.log.Printf("control: interrupt_request with nothing running")
	}
	k.reply(r, interruptReply{Status: "ok"})
}
