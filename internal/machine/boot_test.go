package machine

import (
	"testing"
	"testing/fstest"
)

func TestReadBoot(t *testing.T) {
	cpuinfo := func(flags string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte("processor\t: 0\nmodel name\t: X\nflags\t\t: fpu " + flags + " sse2\n")}
	}
	for _, tc := range []struct {
		name     string
		fsys     fstest.MapFS
		wantPCID string
	}{
		{"pcid", fstest.MapFS{"proc/cpuinfo": cpuinfo("pcid invpcid"), "proc/cmdline": {Data: []byte("quiet\n")}}, "yes"},
		{"no pcid (PTI flushes the TLB at each syscall)", fstest.MapFS{"proc/cpuinfo": cpuinfo("")}, "no"},
		{"nopcid on the command line", fstest.MapFS{"proc/cpuinfo": cpuinfo("pcid"), "proc/cmdline": {Data: []byte("quiet nopcid\n")}}, "off"},
		{"no flags (arm)", fstest.MapFS{"proc/cpuinfo": {Data: []byte("processor\t: 0\nHardware\t: BCM\n")}}, Unknown},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ReadBoot(tc.fsys).PCID; got != tc.wantPCID {
				t.Errorf("PCID %q, want %q", got, tc.wantPCID)
			}
		})
	}
	b := ReadBoot(fstest.MapFS{
		"proc/cmdline": {Data: []byte("mitigations=auto console=ttyS0\n")},
		"sys/devices/system/cpu/vulnerabilities/meltdown": {Data: []byte("Mitigation: PTI\n")},
		"sys/devices/system/cpu/vulnerabilities/l1tf":     {Data: []byte("Not affected\n")},
	})
	if b.Cmdline != "mitigations=auto console=ttyS0" || b.Mitigations["meltdown"] != "Mitigation: PTI" || b.Mitigations["l1tf"] != "Not affected" || len(b.Mitigations) != 2 {
		t.Errorf("boot %+v", b)
	}
	if e := ReadBoot(fstest.MapFS{}); e.Cmdline != Unknown || len(e.Mitigations) != 0 || e.PCID != Unknown {
		t.Errorf("an empty machine: %+v", e)
	}
}
