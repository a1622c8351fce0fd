// Package output is where a glue session's output goes: the pipes that
// carry the interpreter's stdout and stderr (and its shell lines') and
// publish them while a cell runs, whole lines as they come (Pipe); the
// outlet that serializes them, with the displays, into the publisher of the
// running cell and holds what arrives between cells (Outlet); the display
// package that cells call, as the interpreter's symbol table
// (DisplayExports); and the bundle that a cell's final value shows
// (ResultBundle, FormatValue).
package output
