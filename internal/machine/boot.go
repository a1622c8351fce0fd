package machine

import (
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
)

// vulnerabilitiesDir lists one file per CPU vulnerability the kernel knows.
const vulnerabilitiesDir = cpuRoot + "/vulnerabilities"

// ReadBoot reads the kernel's command line, its mitigations and PCID from
// the file system fsys (rooted at "/"); what is missing is Unknown.
func ReadBoot(fsys fs.FS) Boot {
	b := Boot{Cmdline: readValue(fsys, "proc/cmdline"), Mitigations: map[string]string{}, PCID: Unknown}
	if entries, err := fs.ReadDir(fsys, vulnerabilitiesDir); err == nil {
		for _, e := range entries {
			if !e.IsDir() {
				b.Mitigations[e.Name()] = readValue(fsys, path.Join(vulnerabilitiesDir, e.Name()))
			}
		}
	}
	if info := parseCPUInfo(readFile(fsys, "proc/cpuinfo")); info.flags != nil {
		switch {
		case !slices.Contains(info.flags, "pcid"):
			b.PCID = "no"
		case slices.Contains(strings.Fields(b.Cmdline), "nopcid"):
			b.PCID = "off"
		default:
			b.PCID = "yes"
		}
	}
	return b
}

// hostName is the host name, or Unknown.
func hostName() string {
	h, err := os.Hostname()
	if err != nil {
		return Unknown
	}
	return orUnknown(h)
}
