package kernel

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
)

// frameCase is one case of testdata/frames.json, written by gen_frames.py
// with jupyter_client's Session.
type frameCase struct {
	Name   string       `json:"name"`
	Key    string       `json:"key"`
	Frames []string     `json:"frames"`
	Error  string       `json:"error"`
	Expect *frameExpect `json:"expect"`
}

type frameExpect struct {
	Identities  []string       `json:"identities"`
	Header      Header         `json:"header"`
	ParentMsgID string         `json:"parent_msg_id"`
	Metadata    map[string]any `json:"metadata"`
	Content     map[string]any `json:"content"`
	Buffers     []string       `json:"buffers"`
	Signature   string         `json:"signature"`
}

// wireError maps the generator's error names to this package's sentinels.
func wireError(name string) (error, bool) {
	err, ok := map[string]error{
		"bad_signature": ErrBadSignature,
		"unsigned":      ErrUnsigned,
		"replayed":      ErrReplayed,
		"no_delimiter":  ErrNoDelimiter,
		"truncated":     ErrTruncated,
		"bad_json":      ErrBadJSON,
		"no_msg_type":   ErrNoMsgType,
	}[name]
	return err, ok
}

func loadFrameCases(t testing.TB) []frameCase {
	t.Helper()
	data, err := os.ReadFile("testdata/frames.json")
	if err != nil {
		t.Fatalf("reading frames (regenerate with kernel/testdata/gen_frames.py): %v", err)
	}
	var file struct {
		Cases []frameCase `json:"cases"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatalf("decoding testdata/frames.json: %v", err)
	}
	if len(file.Cases) == 0 {
		t.Fatal("testdata/frames.json has no cases")
	}
	return file.Cases
}

func decodeB64(t testing.TB, ss []string) [][]byte {
	t.Helper()
	out := make([][]byte, len(ss))
	for i, s := range ss {
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		out[i] = b
	}
	return out
}

// TestReceiveJupyterClientFrames decodes frames serialised by jupyter_client
// and checks the result against what jupyter_client decodes from them, or
// the error each tampering must cause.
func TestReceiveJupyterClientFrames(t *testing.T) {
	for _, c := range loadFrameCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			frames := decodeB64(t, c.Frames)
			r := NewReceiver(NewCodec([]byte(c.Key)), 16)
			if c.Error == "replayed" {
				if _, err := r.Receive(frames); err != nil {
					t.Fatalf("first delivery: %v", err)
				}
			}
			m, err := r.Receive(frames)
			if c.Error != "" {
				want, ok := wireError(c.Error)
				if !ok {
					t.Fatalf("unknown error name %q in testdata", c.Error)
				}
				if !errors.Is(err, want) {
					t.Fatalf("err = %v, want %v", err, want)
				}
				return
			}
			if err != nil {
				t.Fatalf("Receive: %v", err)
			}
			checkDecoded(t, m, c.Expect)
		})
	}
}

func checkDecoded(t *testing.T, m Message, want *frameExpect) {
	t.Helper()
	if want == nil {
		t.Fatal("testdata case has no expectation")
	}
	if got := encodeB64(m.Identities); !reflect.DeepEqual(got, want.Identities) {
		t.Errorf("identities = %v, want %v", got, want.Identities)
	}
	if m.Header != want.Header {
		t.Errorf("header = %+v, want %+v", m.Header, want.Header)
	}
	if m.ParentHeader.MsgID != want.ParentMsgID {
		t.Errorf("parent msg_id = %q, want %q", m.ParentHeader.MsgID, want.ParentMsgID)
	}
	if !reflect.DeepEqual(m.Metadata, want.Metadata) {
		t.Errorf("metadata = %v, want %v", m.Metadata, want.Metadata)
	}
	var content map[string]any
	if err := json.Unmarshal(m.Content, &content); err != nil {
		t.Fatalf("content: %v", err)
	}
	if !reflect.DeepEqual(content, want.Content) {
		t.Errorf("content = %v, want %v", content, want.Content)
	}
	if got := encodeB64(m.Buffers); !reflect.DeepEqual(got, want.Buffers) {
		t.Errorf("buffers = %v, want %v", got, want.Buffers)
	}
	if string(m.Signature) != want.Signature {
		t.Errorf("signature = %q, want %q", m.Signature, want.Signature)
	}
}

func encodeB64(frames [][]byte) []string {
	out := make([]string, len(frames))
	for i, f := range frames {
		out[i] = base64.StdEncoding.EncodeToString(f)
	}
	return out
}

// TestSignMatchesJupyterClient signs the frames jupyter_client signed and
// expects the same hex digest.
func TestSignMatchesJupyterClient(t *testing.T) {
	for _, c := range loadFrameCases(t) {
		if c.Error != "" || c.Key == "" {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			frames := decodeB64(t, c.Frames)
			_, rest, err := SplitIdentities(frames)
			if err != nil {
				t.Fatal(err)
			}
			got := NewCodec([]byte(c.Key)).Sign([4][]byte{rest[1], rest[2], rest[3], rest[4]})
			if !bytes.Equal(got, rest[0]) {
				t.Errorf("Sign = %s, jupyter_client signed %s", got, rest[0])
			}
		})
	}
}

// TestEncodeDecodeRoundTrip encodes a reply and decodes it again, signed and
// unsigned.
func TestEncodeDecodeRoundTrip(t *testing.T) {
	parent := json.RawMessage(`{"msg_id":"req-1","msg_type":"execute_request","extra":"kept"}`)
	for _, key := range []string{"k3y", ""} {
		t.Run("key="+key, func(t *testing.T) {
			codec := NewCodec([]byte(key))
			out := Outgoing{
				Identities: [][]byte{[]byte("id-1")},
				Header:     NewHeader("execute_reply", "sess", "kernel"),
				Parent:     parent,
				Content:    map[string]any{"status": "ok", "execution_count": 3},
				Buffers:    [][]byte{{0, 1, 2}},
			}
			frames, err := codec.Encode(out)
			if err != nil {
				t.Fatal(err)
			}
			sig := frames[2]
			if (len(sig) == 64) != (key != "") {
				t.Errorf("signature frame %q for key %q", sig, key)
			}
			if string(frames[4]) != string(parent) {
				t.Errorf("parent frame = %s, want the request header as received", frames[4])
			}
			m, err := codec.Decode(frames)
			if err != nil {
				t.Fatalf("Decode(Encode(...)): %v", err)
			}
			if m.Header != out.Header || m.Header.Version != "5.3" {
				t.Errorf("header = %+v, want %+v with version 5.3", m.Header, out.Header)
			}
			if m.ParentHeader.MsgID != "req-1" || len(m.Buffers) != 1 || string(m.Identities[0]) != "id-1" {
				t.Errorf("decoded %+v", m)
			}
			if string(m.Content) != `{"execution_count":3,"status":"ok"}` {
				t.Errorf("content = %s", m.Content)
			}
		})
	}
}

// TestDecodeRejects covers malformed frames the generator cannot express.
func TestDecodeRejects(t *testing.T) {
	good := func() [][]byte {
		return [][]byte{[]byte(Delimiter), nil, []byte(`{"msg_type":"x","msg_id":"1"}`), []byte("{}"), []byte("{}"), []byte("{}")}
	}
	tooManyIDs := append(make([][]byte, MaxIdentities+1), good()...)
	for i := range MaxIdentities + 1 {
		tooManyIDs[i] = []byte("id")
	}
	cases := []struct {
		name   string
		frames [][]byte
		want   error
	}{
		{"empty message", nil, ErrNoDelimiter},
		{"delimiter only", [][]byte{[]byte(Delimiter)}, ErrTruncated},
		{"delimiter beyond the identity bound", tooManyIDs, ErrNoDelimiter},
		{"content is an array", replaceFrame(good(), 5, "[]"), ErrBadJSON},
		{"header is a string", replaceFrame(good(), 2, `"x"`), ErrBadJSON},
		{"metadata is not JSON", replaceFrame(good(), 4, "{"), ErrBadJSON},
		{"parent header is empty", replaceFrame(good(), 3, ""), ErrBadJSON},
		{"msg_type is empty", replaceFrame(good(), 2, `{"msg_type":""}`), ErrNoMsgType},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := NewCodec(nil).Decode(c.frames)
			if !errors.Is(err, c.want) {
				t.Errorf("err = %v, want %v", err, c.want)
			}
		})
	}
	// The same frames pass with the delimiter one place earlier.
	ok := append(tooManyIDs[1:MaxIdentities+1:MaxIdentities+1], good()...)
	if _, err := NewCodec(nil).Decode(ok); err != nil {
		t.Errorf("%d identities: %v", MaxIdentities, err)
	}
}

func replaceFrame(frames [][]byte, i int, s string) [][]byte {
	frames[i] = []byte(s)
	return frames
}

// TestReplayGuardWindow checks that the guard forgets the oldest signature
// once its window is full, and only then.
func TestReplayGuardWindow(t *testing.T) {
	g := newReplayGuard(2)
	steps := []struct {
		sig  string
		want bool
	}{
		{"a", true}, {"a", false}, {"b", true}, {"a", false},
		{"c", true}, // evicts a
		{"b", false}, {"a", true}, {"c", false},
	}
	for i, s := range steps {
		if got := g.add([]byte(s.sig)); got != s.want {
			t.Fatalf("step %d add(%q) = %v, want %v", i, s.sig, got, s.want)
		}
	}
}

// TestBadSignatureNotRemembered checks that a forged message does not make
// the genuine one with the same signature look like a replay.
func TestBadSignatureNotRemembered(t *testing.T) {
	codec := NewCodec([]byte("key"))
	frames, err := codec.Encode(Outgoing{Header: NewHeader("kernel_info_request", "s", "u"), Content: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	forged := append([][]byte(nil), frames...)
	forged[5] = []byte(`{"evil":true}`)
	r := NewReceiver(codec, 8)
	if _, err := r.Receive(forged); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("forged: err = %v", err)
	}
	if _, err := r.Receive(frames); err != nil {
		t.Fatalf("genuine after forged: %v", err)
	}
	if _, err := r.Receive(frames); !errors.Is(err, ErrReplayed) {
		t.Fatalf("genuine again: err = %v, want replay", err)
	}
	if !strings.Contains(NewID(), "-") || NewID() == NewID() {
		t.Error("NewID does not give distinct UUIDs")
	}
}

// TestReplayGuardDoesNotGrow checks that remembering a signature allocates
// nothing once the guard exists, before its window is full and after (a
// guard that kept each signature as a new string grew the kernel's heap by
// about 600 bytes a cell in bench/soak.py).
func TestReplayGuardDoesNotGrow(t *testing.T) {
	const n = 1024
	g := newReplayGuard(n)
	sigs := make([][]byte, 5*n)
	for i := range sigs {
		sigs[i] = []byte(fmt.Sprintf("%064x", i))
	}
	i := 0
	allocs := testing.AllocsPerRun(len(sigs)-1, func() {
		if !g.add(sigs[i]) {
			t.Fatalf("signature %d read as a replay", i)
		}
		i++
	})
	if allocs != 0 {
		t.Fatalf("add allocates %.2f times a signature, want 0", allocs)
	}
	if g.add(sigs[i-1]) {
		t.Fatal("the last signature was not remembered")
	}
}
