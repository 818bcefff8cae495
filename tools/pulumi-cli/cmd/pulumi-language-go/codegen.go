// Code generation with Pulumi's Go generator (pkg/v3/codegen/go): an SDK from a package schema
// (`pulumi package gen-sdk --language go`), a program from PCL (`pulumi import`), a whole project
// (`pulumi convert --language go`); programs get the fix of addressCompositeLiterals. Packages a
// program or schema refers to are loaded through the engine's schema loader, whose address comes
// with each request.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"

	codegen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	hclsyntax "github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// bindOptions are the options Pulumi's hosts bind PCL with: invokes in their
// output form, and, unless strict binding is asked for, tolerance of what the generator cannot type.
func bindOptions(strict bool) []pcl.BindOption {
	opts := []pcl.BindOption{pcl.PreferOutputVersionedInvokes}
	if !strict {
		opts = append(opts, pcl.NonStrictBindOptions()...)
	}
	return opts
}

func (h *goHost) GeneratePackage(
	_ context.Context, req *pulumirpc.GeneratePackageRequest,
) (*pulumirpc.GeneratePackageResponse, error) {
	if len(req.GetExtraFiles()) > 0 {
		return nil, errors.New("overlays are not supported for Go")
	}
	loader, err := schema.NewLoaderClient(req.GetLoaderTarget())
	if err != nil {
		return nil, err
	}
	defer loader.Close()

	var spec schema.PackageSpec
	if err := json.Unmarshal([]byte(req.GetSchema()), &spec); err != nil {
		return nil, err
	}
	// Dangling references are allowed, as by Pulumi's own Go host: they are left to the generator.
	pkg, diags, err := schema.BindSpec(spec, schema.NewCachedLoader(loader), schema.ValidationOptions{AllowDanglingReferences: true})
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return &pulumirpc.GeneratePackageResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}, nil
	}
	if req.GetLocal() {
		// A local SDK (`pulumi package add`, `pulumi convert`) is linked into the program as a module of
		// its own (Link): the generator writes its go.mod, as for Pulumi's packable SDKs.
		pkg.SupportPack = true
	}
	files, err := codegen.GeneratePackage("pulumi-language-go", pkg, req.GetLocalDependencies())
	if err != nil {
		return nil, err
	}
	for name, data := range files {
		out := filepath.Join(req.GetDirectory(), name)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return nil, fmt.Errorf("could not create output directory %s: %w", filepath.Dir(name), err)
		}
		if err := os.WriteFile(out, data, 0o644); err != nil {
			return nil, fmt.Errorf("could not write output file %s: %w", name, err)
		}
	}
	return &pulumirpc.GeneratePackageResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}, nil
}

func (h *goHost) GenerateProgram(
	_ context.Context, req *pulumirpc.GenerateProgramRequest,
) (*pulumirpc.GenerateProgramResponse, error) {
	loader, err := schema.NewLoaderClient(req.GetLoaderTarget())
	if err != nil {
		return nil, err
	}
	defer loader.Close()

	parser := hclsyntax.NewParser()
	for path, contents := range req.GetSource() {
		if err := parser.ParseFile(strings.NewReader(contents), path); err != nil {
			return nil, err
		}
		if parser.Diagnostics.HasErrors() {
			return nil, parser.Diagnostics
		}
	}
	program, diags, err := pcl.BindProgram(parser.Files, schema.NewCachedLoader(loader), bindOptions(req.GetStrict())...)
	if err != nil {
		return nil, err
	}
	rpcDiagnostics := plugin.HclDiagnosticsToRPCDiagnostics(diags)
	if diags.HasErrors() {
		return &pulumirpc.GenerateProgramResponse{Diagnostics: rpcDiagnostics}, nil
	}
	if program == nil {
		return nil, errors.New("internal error: program was nil")
	}
	files, diags, err := codegen.GenerateProgram(program)
	if err != nil {
		return nil, err
	}
	for name, source := range files {
		if strings.HasSuffix(name, ".go") {
			files[name] = addressCompositeLiterals(source)
		}
	}
	return &pulumirpc.GenerateProgramResponse{
		Source:      files,
		Diagnostics: append(rpcDiagnostics, plugin.HclDiagnosticsToRPCDiagnostics(diags)...),
	}, nil
}

// addressCompositeLiterals rewrites `&*T{...}` as `&T{...}` in a generated Go file. Pulumi's Go
// program generator (pkg/v3 v3.274.1) writes the former for an object of a discriminated union
// given as a resource input (here a Source's `deployment`, as `pulumi import` prints it), which Go
// refuses ("cannot indirect T{...}": a composite literal is a value, not a pointer); the
// address of the literal is what the generator means and what the SDK takes. A file that does not
// parse is returned as it is, for Go to report.
func addressCompositeLiterals(source []byte) []byte {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "", source, parser.ParseComments)
	if err != nil {
		return source
	}
	changed := false
	ast.Inspect(file, func(n ast.Node) bool {
		if addr, ok := n.(*ast.UnaryExpr); ok && addr.Op == token.AND {
			if star, ok := addr.X.(*ast.StarExpr); ok {
				if lit, ok := star.X.(*ast.CompositeLit); ok {
					addr.X = lit
					changed = true
				}
			}
		}
		return true
	})
	if !changed {
		return source
	}
	var out bytes.Buffer
	if err := format.Node(&out, fset, file); err != nil {
		return source
	}
	return out.Bytes()
}

func (h *goHost) GenerateProject(
	_ context.Context, req *pulumirpc.GenerateProjectRequest,
) (*pulumirpc.GenerateProjectResponse, error) {
	loader, err := schema.NewLoaderClient(req.GetLoaderTarget())
	if err != nil {
		return nil, err
	}
	defer loader.Close()

	program, diags, err := pcl.BindDirectory(req.GetSourceDirectory(), schema.NewCachedLoader(loader),
		bindOptions(req.GetStrict())...)
	if err != nil {
		return nil, err
	}
	rpcDiagnostics := plugin.HclDiagnosticsToRPCDiagnostics(diags)
	if diags.HasErrors() {
		return &pulumirpc.GenerateProjectResponse{Diagnostics: rpcDiagnostics}, nil
	}
	if program == nil {
		return nil, errors.New("internal error: program was nil")
	}
	var project workspace.Project
	if err := json.Unmarshal([]byte(req.GetProject()), &project); err != nil {
		return nil, err
	}
	files, diags, err := codegen.GenerateProjectFiles(project, program, req.GetLocalDependencies())
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return nil, diags
	}
	// Written as codegen.GenerateProject does: Pulumi.yaml at the root, the rest in `main` if set.
	root := req.GetTargetDirectory()
	programDir := filepath.Join(root, project.Main)
	if err := os.MkdirAll(programDir, 0o755); err != nil {
		return nil, fmt.Errorf("create main directory: %w", err)
	}
	for name, data := range files {
		dir := programDir
		if name == "Pulumi.yaml" {
			dir = root
		} else if strings.HasSuffix(name, ".go") {
			data = addressCompositeLiterals(data)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return nil, fmt.Errorf("could not write output program: %w", err)
		}
	}
	return &pulumirpc.GenerateProjectResponse{Diagnostics: rpcDiagnostics}, nil
}
