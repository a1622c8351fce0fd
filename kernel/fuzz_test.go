package kernel

import (
	"encoding/binary"
	"testing"
)

// packFrames joins frames as a 2-byte big-endian length then the bytes, the
// form the fuzzer mutates.
func packFrames(frames [][]byte) []byte {
	var out []byte
	for _, f := range frames {
		f = f[:min(len(f), 0xffff)]
		out = binary.BigEndian.AppendUint16(out, uint16(len(f)))
		out = append(out, f...)
	}
	return out
}

// unpackFrames is the inverse of packFrames; a short tail becomes the last
// frame as it is.
func unpackFrames(data []byte) [][]byte {
	var frames [][]byte
	for len(data) >= 2 {
		n := int(binary.BigEndian.Uint16(data))
		data = data[2:]
		n = min(n, len(data))
		frames = append(frames, data[:n])
		data = data[n:]
	}
	if len(data) > 0 {
		frames = append(frames, data)
	}
	return frames
}

// FuzzReceive feeds arbitrary multipart messages to a signed and an unsigned
// receiver: they must never panic, and what they accept must re-encode.
// Seeds are the jupyter_client frames of testdata/frames.json.
//
//	go test ./kernel -run '^$' -fuzz FuzzReceive -fuzztime 60s
func FuzzReceive(f *testing.F) {
	for _, c := range loadFrameCases(f) {
		f.Add(packFrames(decodeB64(f, c.Frames)), c.Key != "")
	}
	f.Fuzz(func(t *testing.T, data []byte, signed bool) {
		key := []byte(nil)
		if signed {
			key = []byte("a0b1c2d3-secret-key")
		}
		r := NewReceiver(NewCodec(key), 4)
		m, err := r.Receive(unpackFrames(data))
		if err != nil {
			return
		}
		if m.Header.MsgType == "" {
			t.Fatalf("accepted a message without msg_type: %+v", m)
		}
		if _, err := NewCodec(key).Encode(Outgoing{Header: m.Header, Parent: m.RawHeader, Metadata: m.Metadata, Content: m.Content}); err != nil {
			t.Fatalf("accepted message does not re-encode: %v", err)
		}
	})
}
