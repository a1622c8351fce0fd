package schema

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The embedded schemas are copies of the shared contract's; when the
// contract sits beside this checkout, they must not have drifted.
func TestSchemasMatchTheContract(t *testing.T) {
	for _, name := range []string{"result.schema.json", "build.schema.json"} {
		shared, err := os.ReadFile(filepath.Join("..", "..", "shared", "schema", name))
		if err != nil {
			t.Skipf("the shared contract is not beside this checkout: %v", err)
		}
		ours, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(shared, ours) {
			t.Errorf("%s differs from the shared contract's", name)
		}
	}
}

func TestValidateRejects(t *testing.T) {
	err := ValidateResult(map[string]any{"schema": "benchbook.result/1"})
	if err == nil || !strings.Contains(err.Error(), "kernel") {
		t.Errorf("a result without its required keys passed: %v", err)
	}
	err = ValidateBuild(map[string]any{"kernel": map[string]any{}, "cached": true, "build_ms": -1, "variants": []any{}})
	if err == nil {
		t.Error("a build entry with no variants and a negative time passed")
	}
}

// The extension schema holds what this implementation adds: a latency
// whose percentiles are not numbers fails it, though the contract, which
// does not know latency, lets it pass.
func TestExtensionSchemaIsApplied(t *testing.T) {
	r := map[string]any{"schema": "benchbook.result/1",
		"kernel":   map[string]any{"name": "k", "lang": "c", "compiler": "cc", "flags": []any{}, "source_sha256": "a", "binary_sha256": "b"},
		"protocol": map[string]any{}, "conditions": map[string]any{}, "comparisons": []any{}, "aa": map[string]any{}, "findings": []any{},
		"variants": []any{map[string]any{"name": "v", "dead": false, "asm": "", "batch": 1, "series": map[string]any{}, "latency": map[string]any{"n": "many"}}}}
	if err := validate("result.schema.json", r); err != nil && strings.Contains(err.Error(), "latency") {
		t.Fatalf("the contract knows latency: %v", err)
	}
	if err := validate("result.ext.schema.json", r); err == nil || !strings.Contains(err.Error(), "latency") {
		t.Errorf("a latency with n \"many\" passed the extension: %v", err)
	}
}
