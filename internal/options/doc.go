// Package options is what a bench cell's keys say: Options, their
// defaults (DefaultOptions), the parser of key=value arguments
// (ParseOptions), the help of every key (KeyHelp) and the checks of a
// set of options, on their own (Check) and against a kernel and this
// machine (ResolveVariants, CheckMachine, CheckExport). internal/protocol
// runs the protocol the options describe and re-exports these names.
package options
