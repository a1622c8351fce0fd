package machine

import (
	"strings"
	"testing"
)

// cacheBytes reads /sys's sizes; LoadMemoryBytes is twice the largest, in
// bounds; a memory load thread starts and stops; a bad kind is refused.
func TestLoadKinds(t *testing.T) {
	for in, want := range map[string]int64{"48K": 48 << 10, "2048K": 2 << 20, "260M": 260 << 20, "1G": 1 << 30, "": 0, "x": 0} {
		if got := CacheBytes(in); got != want {
			t.Errorf("CacheBytes(%q) = %d, want %d", in, got, want)
		}
	}
	if b := LoadMemoryBytes(); b < 64 || b > MaxLoadMemoryBytes {
		t.Errorf("LoadMemoryBytes() = %d", b)
	}
	stop, info, err := StartLoadKind(LoadMemory, 4<<20, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	stop()
	if len(info.TIDs) != 1 {
		t.Errorf("info %+v", info)
	}
	if _, _, err := StartLoadKind("disk", 0, 1, nil); err == nil || !strings.Contains(err.Error(), `"disk"`) {
		t.Errorf("kind disk: %v", err)
	}
}
