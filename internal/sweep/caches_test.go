package sweep

import (
	"testing"
)

// sysCacheArgs's parser of /sys sizes.
func TestParseCacheSize(t *testing.T) {
	for in, want := range map[string]int64{"48K": 48 << 10, "2048K": 2 << 20, "32M": 32 << 20, "1G": 1 << 30, "512": 512, "x": 0} {
		if got, _ := ParseCacheSize(in); got != want {
			t.Errorf("%q: %d, want %d", in, got, want)
		}
	}
}
