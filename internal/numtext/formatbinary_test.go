package numtext

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// formatSizeBefore and formatBytesBefore are FormatSize and FormatBytes as
// they were before they became one formatter (formatBinary): every sentence,
// key and label they write must read as it did.
func formatSizeBefore(n int64) string {
	for _, u := range []struct {
		s string
		m int64
	}{{"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}} {
		if n >= u.m && n%u.m == 0 {
			return strconv.FormatInt(n/u.m, 10) + u.s
		}
	}
	return strconv.FormatInt(n, 10)
}

func formatBytesBefore(b int64) string {
	for _, u := range []struct {
		s string
		m float64
	}{{"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}} {
		if float64(b) >= u.m {
			return Sig(float64(b)/u.m) + u.s
		}
	}
	return fmt.Sprintf("%d", b)
}

// TestFormatBinary: the two byte-size formatters write what they wrote
// before they shared one implementation, the exact one reads back through
// ParseSize, and the two differ where a size has no exact suffix.
func TestFormatBinary(t *testing.T) {
	for _, c := range []struct {
		n           int64
		size, bytes string
	}{
		{0, "0", "0"}, {-2048, "-2048", "-2048"}, {1023, "1023", "1023"}, {1024, "1K", "1K"},
		{1536, "1536", "1.5K"}, {48 << 10, "48K", "48K"}, {3 << 19, "1536K", "1.5M"},
		{1<<20 + 1, "1048577", "1M"}, {1<<20 - 1, "1048575", "1024K"}, {3 << 29, "1536M", "1.5G"},
		{1 << 40, "1024G", "1024G"}, {1000, "1000", "1000"}, {3000, "3000", "2.93K"},
	} {
		if got := FormatSize(c.n); got != c.size {
			t.Errorf("FormatSize(%d) = %q, want %q", c.n, got, c.size)
		}
		if got := FormatBytes(c.n); got != c.bytes {
			t.Errorf("FormatBytes(%d) = %q, want %q", c.n, got, c.bytes)
		}
	}
	r := rand.New(rand.NewPCG(21, 0))
	values := []int64{math.MaxInt64, math.MinInt64, 1 << 62}
	for range 20000 {
		shift := r.IntN(62)
		values = append(values, r.Int64N(1<<shift+1), (r.Int64N(64)+1)<<shift, -r.Int64N(1<<shift+1))
	}
	for _, n := range values {
		if got, want := FormatSize(n), formatSizeBefore(n); got != want {
			t.Fatalf("FormatSize(%d) = %q, it wrote %q", n, got, want)
		}
		if got, want := FormatBytes(n), formatBytesBefore(n); got != want {
			t.Fatalf("FormatBytes(%d) = %q, it wrote %q", n, got, want)
		}
		if n > 0 && n <= math.MaxInt64/1024 {
			if back, err := ParseSize(FormatSize(n)); err != nil || back != n {
				t.Fatalf("ParseSize(FormatSize(%d) = %q) = %d, %v", n, FormatSize(n), back, err)
			}
		}
	}
}
