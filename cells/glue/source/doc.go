// Package source is what a glue cell's source says, read without running
// it: how a cell splits into shell lines and runs of Go lines
// (SplitCell), a run of Go lines into top-level items (SplitItems), each
// parsed with cell positions (Parse: line directives encode the cell and
// its line, see Directive and CellLine); what an item declares, imports and
// uses; the checks of what the interpreter cannot run that the source alone
// tells; the rewrites the interpreter gets instead of the text (Rewrite);
// whether a cell is complete (IsComplete); and the documentation of the
// packages a cell names (Docs, from go/doc).
//
// It knows nothing of yaegi or of a session: cells/glue runs what it
// reads, and what a rewrite needs of the session it asks through a Scope.
package source
