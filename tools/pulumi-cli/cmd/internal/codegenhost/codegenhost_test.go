package codegenhost

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blang/semver"
	"github.com/hashicorp/hcl/v2"
	nodejs "github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	codegenrpc "github.com/pulumi/pulumi/sdk/v3/proto/go/codegen"
	"google.golang.org/grpc"
)

// noPackages is the engine's schema loader on a machine with no plugin installed.
type noPackages struct{}

func (noPackages) LoadPackage(name string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("no plugin %s is installed", name)
}

func (noPackages) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, fmt.Errorf("no plugin %s is installed", d.Name)
}

func (noPackages) LoadPackageReference(name string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, fmt.Errorf("no plugin %s is installed", name)
}

func (noPackages) LoadPackageReferenceV2(_ context.Context, d *schema.PackageDescriptor) (schema.PackageReference, error) {
	return nil, fmt.Errorf("no plugin %s is installed", d.Name)
}

// loaderTarget serves Pulumi's schema loader protocol (schema.NewLoaderServer, as the CLI does) for
// the length of the test, and returns its address: the LoaderTarget of a request.
func loaderTarget(t *testing.T) string {
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	server := grpc.NewServer()
	codegenrpc.RegisterLoaderServer(server, schema.NewLoaderServer(noPackages{}))
	go func() { _ = server.Serve(listener) }()
	t.Cleanup(server.Stop)
	return listener.Addr().String()
}

const exampleSchema = `{"name": "example", "version": "1.0.0", "resources": {"example:index:Thing": {
	"inputProperties": {"size": {"type": "%s"}}, "properties": {"size": {"type": "%[1]s"}}}}}`

func TestGeneratePackageHandsTheBoundPackageOverAndWritesItsFiles(t *testing.T) {
	dir := t.TempDir()
	var given *schema.Package
	response, err := GeneratePackage(&pulumirpc.GeneratePackageRequest{
		Directory: dir, Schema: fmt.Sprintf(exampleSchema, "integer"), LoaderTarget: loaderTarget(t),
	}, func(pkg *schema.Package, _ schema.ReferenceLoader) (map[string][]byte, error) {
		given = pkg
		return map[string][]byte{"thing.ts": []byte("one"), "types/input.ts": []byte("two")}, nil
	})
	if err != nil || len(response.GetDiagnostics()) != 0 {
		t.Fatalf("%v, %v", response, err)
	}
	if given == nil || given.Name != "example" || len(given.Resources) != 1 || given.Resources[0].Token != "example:index:Thing" {
		t.Fatalf("the generator was given %+v", given)
	}
	for name, want := range map[string]string{"thing.ts": "one", "types/input.ts": "two"} {
		if got, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(got) != want {
			t.Fatalf("%s: %q, %v", name, got, err)
		}
	}
}

func TestAPackageThatDoesNotBindIsAnsweredWithDiagnosticsAndNothingIsGenerated(t *testing.T) {
	dir := t.TempDir()
	response, err := GeneratePackage(&pulumirpc.GeneratePackageRequest{
		Directory: dir, Schema: fmt.Sprintf(exampleSchema, "notatype"), LoaderTarget: loaderTarget(t),
	}, func(*schema.Package, schema.ReferenceLoader) (map[string][]byte, error) {
		t.Fatal("the generator was called")
		return nil, nil
	})
	if err != nil || len(response.GetDiagnostics()) == 0 {
		t.Fatalf("want diagnostics, got %v, %v", response, err)
	}
	named := false
	for _, d := range response.GetDiagnostics() {
		named = named || strings.HasSuffix(d.GetSummary(), "inputProperties/size/type: unknown type kind notatype")
	}
	if !named {
		t.Fatalf("no diagnostic names the type: %v", response.GetDiagnostics())
	}
	if written, _ := os.ReadDir(dir); len(written) != 0 {
		t.Fatalf("written: %v", written)
	}
	if _, err := GeneratePackage(&pulumirpc.GeneratePackageRequest{Schema: "{", LoaderTarget: loaderTarget(t)}, nil); err == nil ||
		!strings.Contains(err.Error(), "the package schema is not valid JSON") {
		t.Fatalf("a schema that is not JSON: %v", err)
	}
}

// GenerateProgram as `pulumi import` uses it, with Pulumi's TypeScript generator.
func TestGenerateProgramBindsThePCLAndHandsTheProgramOver(t *testing.T) {
	source := map[string]string{"main.pp": "config greeting string {\n}\n\noutput out {\n  value = greeting\n}\n"}
	response, err := GenerateProgram(&pulumirpc.GenerateProgramRequest{Source: source, LoaderTarget: loaderTarget(t)}, nodejs.GenerateProgram)
	if err != nil || len(response.GetDiagnostics()) != 0 {
		t.Fatalf("%v, %v", response, err)
	}
	if index := string(response.GetSource()["index.ts"]); !strings.Contains(index, `const greeting = config.require("greeting");`) ||
		!strings.Contains(index, "export const out = greeting;") {
		t.Fatalf("index.ts:\n%s", index)
	}

	broken := map[string]string{"main.pp": "output out {\n  value = [\n}\n"}
	response, err = GenerateProgram(&pulumirpc.GenerateProgramRequest{Source: broken, LoaderTarget: loaderTarget(t)},
		func(*pcl.Program) (map[string][]byte, hcl.Diagnostics, error) {
			t.Fatal("the generator was called")
			return nil, nil, nil
		})
	if err != nil || len(response.GetDiagnostics()) == 0 || len(response.GetSource()) != 0 {
		t.Fatalf("PCL that does not parse: want diagnostics only, got %v, %v", response, err)
	}
}

func TestWriteFilesMakesTheFoldersItNeeds(t *testing.T) {
	dir := t.TempDir()
	if err := WriteFiles(dir, map[string][]byte{"a/b/c.go": []byte("package c\n"), "README.md": []byte("# x\n")}); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "a", "b", "c.go")); err != nil || string(got) != "package c\n" {
		t.Fatalf("%q, %v", got, err)
	}
}
