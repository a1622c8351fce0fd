package protocol

import (
	"github.com/benchbook/benchbook/internal/options"
)

// The names of internal/options (a bench cell's keys): protocol.X is
// options.X.
type (
	Options  = options.Options
	Progress = options.Progress
)

// DefaultOptions is options.DefaultOptions.
func DefaultOptions() Options { return options.DefaultOptions() }

// ValidKeys is options.ValidKeys.
func ValidKeys() []string { return options.ValidKeys() }

// ParseOptions is options.ParseOptions.
func ParseOptions(args []string) (Options, error) { return options.ParseOptions(args) }

// KeyHelp is options.KeyHelp.
func KeyHelp(key string) string { return options.KeyHelp(key) }
