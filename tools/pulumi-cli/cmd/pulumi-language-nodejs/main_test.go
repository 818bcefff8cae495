package main

import (
	"slices"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/nodejs/npm"
	"google.golang.org/protobuf/types/known/structpb"
)

func TestRuntimeOptions(t *testing.T) {
	defaults, err := runtimeOptions(nil)
	if err != nil || !defaults.typescript || defaults.packageManager != npm.NpmPackageManager {
		t.Fatalf("no options: %+v, %v", defaults, err)
	}
	// What `pulumi new typescript` writes, and the rest of the options.
	given, err := structpb.NewStruct(map[string]any{
		"packagemanager": "pnpm", "typescript": false, "tsconfig": "tsconfig.build.json", "nodeargs": "--inspect --trace-warnings",
	})
	if err != nil {
		t.Fatal(err)
	}
	opts, err := runtimeOptions(given)
	if err != nil {
		t.Fatal(err)
	}
	if opts.packageManager != npm.PnpmPackageManager || opts.typescript || opts.tsconfig != "tsconfig.build.json" ||
		!slices.Equal(opts.nodeArgs, []string{"--inspect", "--trace-warnings"}) {
		t.Fatalf("got %+v", opts)
	}
	wrong, _ := structpb.NewStruct(map[string]any{"packagemanager": "pip"})
	if _, err := runtimeOptions(wrong); err == nil || err.Error() != `Pulumi.yaml runtime.options.packagemanager: must be npm, yarn, pnpm or bun, not "pip"` {
		t.Fatalf("got %v", err)
	}
}
