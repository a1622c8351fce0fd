package kernel

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// ProtocolVersion is the Jupyter messaging protocol version this kernel speaks.
const ProtocolVersion = "5.3"

// Delimiter separates the routing identities from the message frames.
const Delimiter = "<IDS|MSG>"

// MaxIdentities bounds the search for the delimiter: a message with more
// routing identities than this is rejected as having no delimiter.
const MaxIdentities = 64

// Errors for frames that are dropped; each is wrapped with details.
var (
	ErrNoDelimiter  = errors.New("no <IDS|MSG> delimiter")
	ErrTruncated    = errors.New("fewer than 5 frames after the delimiter")
	ErrUnsigned     = errors.New("missing signature")
	ErrBadSignature = errors.New("bad signature")
	ErrReplayed     = errors.New("replayed signature")
	ErrBadJSON      = errors.New("invalid JSON")
	ErrNoMsgType    = errors.New("header has no msg_type")
)

// Header is a message header.
type Header struct {
	MsgID    string `json:"msg_id"`
	Session  string `json:"session"`
	Username string `json:"username"`
	Date     string `json:"date"`
	MsgType  string `json:"msg_type"`
	Version  string `json:"version"`
}

// Message is a decoded wire message.
type Message struct {
	// Identities are the routing frames before the delimiter.
	Identities   [][]byte
	Header       Header
	ParentHeader Header
	Metadata     map[string]any
	// Content is the content frame, checked to be a JSON object.
	Content json.RawMessage
	// Buffers are the frames after the content.
	Buffers [][]byte
	// RawHeader is the header frame as received; replies echo it as their
	// parent_header so fields this package does not know survive.
	RawHeader json.RawMessage
	// Signature is the signature frame as received (empty when unsigned).
	Signature []byte
}

// Outgoing is a message to encode and sign.
type Outgoing struct {
	Identities [][]byte
	Header     Header
	// Parent is the parent header as JSON; nil means {}.
	Parent   json.RawMessage
	Metadata map[string]any
	Content  any
	Buffers  [][]byte
}

// Codec signs and verifies messages with one key. The zero value (empty key)
// neither signs nor checks signatures.
type Codec struct {
	key []byte
}

// NewCodec returns a codec for key; an empty key means unsigned messages.
func NewCodec(key []byte) Codec {
	return Codec{key: bytes.Clone(key)}
}

// Signed reports whether the codec signs and checks messages.
func (c Codec) Signed() bool { return len(c.key) > 0 }

// Sign returns the lowercase hex HMAC-SHA256 of the header, parent header,
// metadata and content frames, or nil with an empty key.
func (c Codec) Sign(parts [4][]byte) []byte {
	if !c.Signed() {
		return nil
	}
	mac := hmac.New(sha256.New, c.key)
	for _, p := range parts {
		mac.Write(p)
	}
	return []byte(hex.EncodeToString(mac.Sum(nil)))
}

// verify checks sig against the four signed frames in constant time.
func (c Codec) verify(sig []byte, parts [4][]byte) error {
	if !c.Signed() {
		return nil
	}
	if len(sig) == 0 {
		return ErrUnsigned
	}
	if !hmac.Equal(sig, c.Sign(parts)) {
		return fmt.Errorf("%w %.16q", ErrBadSignature, sig)
	}
	return nil
}

// SplitIdentities splits frames at the delimiter, which must come within the
// first MaxIdentities+1 frames; the delimiter itself is in neither part.
func SplitIdentities(frames [][]byte) (ids, rest [][]byte, err error) {
	limit := min(len(frames), MaxIdentities+1)
	for i := 0; i < limit; i++ {
		if string(frames[i]) == Delimiter {
			return frames[:i], frames[i+1:], nil
		}
	}
	return nil, nil, fmt.Errorf("%w in the first %d of %d frames", ErrNoDelimiter, limit, len(frames))
}

// Decode splits, verifies and decodes a multipart message. It does not check
// for replays (see Receiver).
func (c Codec) Decode(frames [][]byte) (Message, error) {
	ids, rest, err := SplitIdentities(frames)
	if err != nil {
		return Message{}, err
	}
	if len(rest) < 5 {
		return Message{}, fmt.Errorf("%w: got %d", ErrTruncated, len(rest))
	}
	parts := [4][]byte{rest[1], rest[2], rest[3], rest[4]}
	if err := c.verify(rest[0], parts); err != nil {
		return Message{}, err
	}
	m := Message{Identities: ids, Buffers: rest[5:], Signature: rest[0], RawHeader: parts[0], Content: parts[3]}
	if err := decodeParts(&m, parts); err != nil {
		return Message{}, err
	}
	return m, nil
}

// decodeParts decodes the header, parent header and metadata into m and
// checks that the content is a JSON object.
func decodeParts(m *Message, parts [4][]byte) error {
	names := [3]string{"header", "parent_header", "metadata"}
	dst := [3]any{&m.Header, &m.ParentHeader, &m.Metadata}
	for i, d := range dst {
		if err := decodeObject(parts[i], d); err != nil {
			return fmt.Errorf("%w in %s: %w", ErrBadJSON, names[i], err)
		}
	}
	var content map[string]json.RawMessage
	if err := decodeObject(parts[3], &content); err != nil {
		return fmt.Errorf("%w in content: %w", ErrBadJSON, err)
	}
	if m.Header.MsgType == "" {
		return fmt.Errorf("%w (msg_id %q)", ErrNoMsgType, m.Header.MsgID)
	}
	return nil
}

// decodeObject decodes a frame that must hold a JSON object.
func decodeObject(frame []byte, dst any) error {
	trimmed := bytes.TrimSpace(frame)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return fmt.Errorf("not a JSON object: %.40q", frame)
	}
	return json.Unmarshal(trimmed, dst)
}

// Encode serialises and signs a message into frames ready to send:
// identities, delimiter, signature, header, parent, metadata, content, buffers.
func (c Codec) Encode(o Outgoing) ([][]byte, error) {
	header, err := json.Marshal(o.Header)
	if err != nil {
		return nil, fmt.Errorf("encoding header of %s: %w", o.Header.MsgType, err)
	}
	parent := o.Parent
	if len(parent) == 0 {
		parent = json.RawMessage("{}")
	}
	metadata := o.Metadata
	if metadata == nil {
		metadata = map[string]any{}
	}
	meta, err := json.Marshal(metadata)
	if err != nil {
		return nil, fmt.Errorf("encoding metadata of %s: %w", o.Header.MsgType, err)
	}
	content, err := json.Marshal(o.Content)
	if err != nil {
		return nil, fmt.Errorf("encoding content of %s: %w", o.Header.MsgType, err)
	}
	parts := [4][]byte{header, parent, meta, content}
	frames := make([][]byte, 0, len(o.Identities)+6+len(o.Buffers))
	frames = append(frames, o.Identities...)
	frames = append(frames, []byte(Delimiter), c.Sign(parts))
	frames = append(frames, parts[:]...)
	return append(frames, o.Buffers...), nil
}

// NewHeader returns a fresh header of msgType for session, dated now.
func NewHeader(msgType, session, username string) Header {
	return Header{
		MsgID:    NewID(),
		Session:  session,
		Username: username,
		Date:     time.Now().UTC().Format("2006-01-02T15:04:05.000000Z"),
		MsgType:  msgType,
		Version:  ProtocolVersion,
	}
}

// NewID returns a random UUID (version 4) string.
func NewID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on Linux.
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
