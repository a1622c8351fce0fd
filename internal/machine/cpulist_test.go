package machine

import (
	"slices"
	"strings"
	"testing"
)

func TestParseCPUList(t *testing.T) {
	tests := []struct {
		name, in string
		want     []int
	}{
		{"single CPU", "0", []int{0}},
		{"one range", "0-3", []int{0, 1, 2, 3}},
		{"ranges and singles", "0-3,5,8-9", []int{0, 1, 2, 3, 5, 8, 9}},
		{"trailing newline as /sys writes it", "0-1\n", []int{0, 1}},
		{"empty list, as offline is when all are online", "\n", []int{}},
		{"unsorted with overlap", "4,0-2,1", []int{0, 1, 2, 4}},
		{"one-element range", "7-7", []int{7}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseCPUList(tt.in)
			if err != nil {
				t.Fatalf("ParseCPUList(%q): %v", tt.in, err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("ParseCPUList(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestParseCPUListErrors(t *testing.T) {
	tests := []struct {
		name, in, mention string
	}{
		{"backwards range", "3-1", "backwards"},
		{"letters", "0-a", `"a"`},
		{"empty element", "0,,2", `""`},
		{"negative", "-1", `""`},
		{"open range", "2-", `""`},
		{"absurd number", "0-99999999", "beyond"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseCPUList(tt.in)
			if err == nil {
				t.Fatalf("ParseCPUList(%q) gave no error", tt.in)
			}
			if !strings.Contains(err.Error(), tt.mention) || !strings.Contains(err.Error(), tt.in) {
				t.Errorf("error %q should quote the list %q and mention %s", err, tt.in, tt.mention)
			}
		})
	}
}

func TestFormatCPUList(t *testing.T) {
	tests := []struct {
		in   []int
		want string
	}{
		{nil, ""},
		{[]int{3}, "3"},
		{[]int{0, 1, 2, 3, 5}, "0-3,5"},
		{[]int{9, 8, 1, 0, 8}, "0-1,8-9"},
		{[]int{0, 2, 4}, "0,2,4"},
	}
	for _, tt := range tests {
		if got := FormatCPUList(tt.in); got != tt.want {
			t.Errorf("FormatCPUList(%v) = %q, want %q", tt.in, got, tt.want)
		}
		back, err := ParseCPUList(tt.want)
		if err != nil {
			t.Fatalf("ParseCPUList(%q): %v", tt.want, err)
		}
		if want := slices.Compact(slices.Sorted(slices.Values(tt.in))); len(want) > 0 && !slices.Equal(back, want) {
			t.Errorf("round trip of %v gave %v", tt.in, back)
		}
	}
}

func TestCheckCPUIn(t *testing.T) {
	online := []int{0, 1, 2, 3, 6}
	if err := checkCPUIn(2, online); err != nil {
		t.Errorf("CPU 2 of %v: %v", online, err)
	}
	err := checkCPUIn(5, online)
	if err == nil {
		t.Fatalf("CPU 5 is not in %v, yet no error", online)
	}
	for _, want := range []string{"CPU 5", "0-3,6"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %q", err, want)
		}
	}
}

func TestOnlineCPUsFixtures(t *testing.T) {
	for _, tt := range []struct {
		tree string
		want []int
	}{{"vm", []int{0, 1}}, {"laptop", []int{0, 1, 2, 3}}} {
		got, err := onlineCPUsFS(fixture(t, tt.tree))
		if err != nil {
			t.Fatalf("%s: %v", tt.tree, err)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: online CPUs %v, want %v", tt.tree, got, tt.want)
		}
	}
}

func TestCheckCPULive(t *testing.T) {
	online, err := OnlineCPUs()
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckCPU(online[0]); err != nil {
		t.Errorf("CheckCPU(%d), an online CPU: %v", online[0], err)
	}
	if err := CheckCPU(maxCPUNumber + 1); err == nil {
		t.Errorf("CheckCPU(%d) gave no error", maxCPUNumber+1)
	}
}
