// Package evidence holds executed notebooks (package ipynb) to what they
// claim: Verify recomputes every figure of every embedded result from its
// samples and renders again the tables and commentary readers see, finding
// each output by its role; Compare and CompareN set runs beside one another
// (a rerun beside the published notebook, or one run per machine); all
// check each result against the schema first. docs/evidence.md shows the
// commands.
package evidence
