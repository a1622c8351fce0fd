package protocol_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/machine"
	"github.com/benchbook/benchbook/internal/protocol/benchtest"
	"github.com/benchbook/benchbook/schema"
)

// A result with a measured fingerprint matches the extension schema; one
// whose entry is in furlongs, or has no trials, does not.
func TestFingerprintSchema(t *testing.T) {
	r := benchtest.Seed000(1)
	f := machine.MeasureFingerprint(machine.FingerprintOptions{CPU: -1})
	r.Conditions.Fingerprint = &f
	if err := schema.ValidateResult(r); err != nil {
		t.Fatalf("a measured fingerprint: %v", err)
	}
	for name, edit := range map[string]func(m map[string]any){
		"unit furlongs": func(m map[string]any) { m["entries"].([]any)[0].(map[string]any)["unit"] = "furlongs" },
		"no trials":     func(m map[string]any) { m["entries"].([]any)[1].(map[string]any)["trials"] = []any{} },
		"no boot":       func(m map[string]any) { delete(m, "boot") },
	} {
		b, _ := json.Marshal(r)
		var doc map[string]any
		_ = json.Unmarshal(b, &doc)
		edit(doc["conditions"].(map[string]any)["fingerprint"].(map[string]any))
		if err := schema.ValidateResult(doc); err == nil || !strings.Contains(err.Error(), "result.ext.schema.json") {
			t.Errorf("%s: %v, want the extension schema to refuse it", name, err)
		}
	}
}
