package machine

import (
	"reflect"
	"strings"
	"testing"
)

// Every field of a description is a fact: change any one (by reflection,
// so a field added later is covered) and DiffFacts names it.
func TestEveryFieldIsAFact(t *testing.T) {
	base := DescribeFS(fixture(t, "vm"), Host{Kernel: "Linux 6.1", Arch: "x86_64", CC: "gcc 12", Go: "go1.26"})
	if len(base.CPUs) == 0 || len(base.CPUs[0].Caches) == 0 {
		t.Fatalf("the vm fixture has no CPUs with caches: %+v", base)
	}
	base.IntelPstate = &IntelPstate{Status: "active", NoTurbo: "0", MinPerfPct: "10", MaxPerfPct: "100"}
	var walk func(v reflect.Value, path string)
	changed := 0
	walk = func(v reflect.Value, path string) {
		switch v.Kind() {
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				walk(v.Field(i), path+"."+v.Type().Field(i).Name)
			}
			return
		case reflect.Pointer:
			walk(v.Elem(), path)
			return
		case reflect.Slice:
			if v.Len() > 0 {
				walk(v.Index(0), path+"[0]")
			}
			return
		}
		old := reflect.ValueOf(v.Interface())
		before := base.Facts()
		switch v.Kind() {
		case reflect.String:
			v.SetString(v.String() + "-changed")
		case reflect.Int:
			v.SetInt(v.Int() + 7)
		default:
			t.Fatalf("%s: a %s field; teach this test to change it", path, v.Kind())
		}
		diff := DiffFacts(before, base.Facts())
		if len(diff) == 0 {
			t.Errorf("changing %s is not a difference of facts", path)
		}
		v.Set(old)
		changed++
	}
	walk(reflect.ValueOf(&base).Elem(), "Description")
	if changed < 20 {
		t.Errorf("only %d fields changed", changed)
	}
}

func TestDiffFactsGroupsCPUs(t *testing.T) {
	a := [][2]string{{"clocksource", "tsc"}, {"cpu0 governor", "performance"}, {"cpu1 governor", "performance"}, {"cpu0 caches", "L2 512K (CPUs 0)"}, {"cpu1 caches", "L2 512K (CPUs 1)"}}
	b := [][2]string{{"clocksource", "kvm-clock"}, {"cpu0 governor", "powersave"}, {"cpu1 governor", "powersave"}, {"cpu0 caches", "none"}, {"cpu1 caches", "none"}, {"microcode", "0x1"}}
	got := DiffFacts(a, b)
	want := [][3]string{{"clocksource", "tsc", "kvm-clock"}, {"cpus 0-1 governor", "performance", "powersave"},
		{"cpu0 caches", "L2 512K (CPUs 0)", "none"}, {"cpu1 caches", "L2 512K (CPUs 1)", "none"}, {"microcode", "(none)", "0x1"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("DiffFacts =\n%q\nwant\n%q", got, want)
	}
	for _, f := range DescribeFS(fixture(t, "vm"), Host{}).Facts() {
		if strings.Contains(f[0], "caches") && !strings.HasPrefix(f[0], "cpu") {
			t.Errorf("caches outside a CPU: %q", f)
		}
	}
}
