// Package procs accounts for every process benchbook starts and every file
// it leaves: a process group and a tag per process (Proc, StartProc,
// RunProc), the root a serving benchbook is of everything started on its
// behalf and the guard that cleans up when it dies (Root, BecomeRoot),
// what a killed benchbook left behind (KillOrphans), and the files that
// must not be followed through links or shared with another user
// (LockFile, OwnDir, MkdirIn, OpenRegular, ReadRegular). It knows no
// kernels and no cells: internal/harness builds and runs kernels with it,
// cells and the commands start their children with it.
package procs
