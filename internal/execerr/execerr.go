// Package execerr is the error of a cell as Jupyter shows it, the one type
// the kernel sends (kernel.ExecError) and cells return (cells.Error): its
// ename, evalue and traceback.
package execerr

// Error is a cell that failed: what failed (Name), why and where (Value),
// and the lines to show (Traceback).
type Error struct {
	Name      string
	Value     string
	Traceback []string
}

// Error implements error: "Name: Value".
func (e *Error) Error() string { return e.Name + ": " + e.Value }

// ExecError gives the error's parts as Jupyter shows them.
func (e *Error) ExecError() (name, value string, traceback []string) {
	return e.Name, e.Value, e.Traceback
}
