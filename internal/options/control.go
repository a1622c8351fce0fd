package options

import (
	"fmt"
	"strconv"

	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/result"
)

// setControl reads the pages= and pad= keys.
func (o *Options) setControl(key, val string) error {
	switch key {
	case "pages":
		switch val {
		case "huge", "4k":
			o.Pages = val
			if val == "4k" {
				o.Pages = "" // the default: no control
			}
			return nil
		}
		return fmt.Errorf("pages=%s: want pages=huge (huge pages beside the default 4 KiB pages, measured in the same run) or pages=4k (the default)", val)
	case "pad":
		n, err := numtext.ParseSize(val)
		if err != nil || n > result.MaxPad {
			return fmt.Errorf("pad=%s: want the bytes each row is padded by, a whole number from 1 to %d (e.g. pad=64; the kernel reads it as BENCH_PAD)", val, result.MaxPad)
		}
		o.Pad = n
		return nil
	}
	return nil
}

// checkControl refuses what a control does not combine with: it takes the
// baseline's place, so no baseline and no sweep, and one control at a time.
func (o *Options) checkControl() error {
	key := ""
	switch {
	case o.Pages != "" && o.Pad > 0:
		return fmt.Errorf("pages=%s pad=%d: one control per run; measure them in two %%bench cells", o.Pages, o.Pad)
	case o.Pages != "":
		key = "pages=" + o.Pages
	case o.Pad > 0:
		key = "pad=" + strconv.FormatInt(o.Pad, 10)
	default:
		return nil
	}
	switch {
	case o.BaselineName != "":
		return fmt.Errorf("%s does not combine with baseline=%s: the control is measured beside the kernel in the baseline's place", key, o.BaselineName)
	case o.Sweep != nil:
		return fmt.Errorf("%s does not combine with sweep=: measure the control at one point", key)
	case o.Counts:
		return fmt.Errorf("%s does not combine with counts", key)
	}
	return nil
}
