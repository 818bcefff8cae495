// Code generation with Pulumi's Go generator (pkg/v3/codegen/go): an SDK from a package schema
// (`pulumi package gen-sdk --language go`), a program from PCL (`pulumi import`), a whole project
// (`pulumi convert --language go`); programs get the fix of addressCompositeLiterals. Packages a
// program or schema refers to are loaded through the engine's schema loader (../internal/codegenhost,
// the binding every host of this repo shares).
package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"

	"asset-delivery-as-code/tools/pulumi-cli/cmd/internal/codegenhost"

	"github.com/hashicorp/hcl/v2"
	codegen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// GeneratePackage writes the Go SDK of the package whose schema the request carries.
func (h *goHost) GeneratePackage(
	_ context.Context, req *pulumirpc.GeneratePackageRequest,
) (*pulumirpc.GeneratePackageResponse, error) {
	if len(req.GetExtraFiles()) > 0 {
		return nil, errors.New("overlays are not supported for Go")
	}
	return codegenhost.GeneratePackage(req, func(pkg *schema.Package, _ schema.ReferenceLoader) (map[string][]byte, error) {
		if req.GetLocal() {
			// A local SDK (`pulumi package add`, `pulumi convert`) is linked into the program as a module
			// of its own (Link): the generator writes its go.mod, as for Pulumi's packable SDKs.
			pkg.SupportPack = true
		}
		return codegen.GeneratePackage("pulumi-language-go", pkg, req.GetLocalDependencies())
	})
}

// GenerateProgram turns the PCL the CLI sends (`pulumi import`) into Go: main.go, keyed by file
// name, with the fix of addressCompositeLiterals.
func (h *goHost) GenerateProgram(
	_ context.Context, req *pulumirpc.GenerateProgramRequest,
) (*pulumirpc.GenerateProgramResponse, error) {
	return codegenhost.GenerateProgram(req, func(program *pcl.Program) (map[string][]byte, hcl.Diagnostics, error) {
		files, diags, err := codegen.GenerateProgram(program)
		for name, source := range files {
			if strings.HasSuffix(name, ".go") {
				files[name] = addressCompositeLiterals(source)
			}
		}
		return files, diags, err
	})
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

// GenerateProject writes a whole Go project from a folder of PCL: `pulumi convert --language go`.
func (h *goHost) GenerateProject(
	_ context.Context, req *pulumirpc.GenerateProjectRequest,
) (*pulumirpc.GenerateProjectResponse, error) {
	return codegenhost.GenerateProject(req, func(root string, project workspace.Project, program *pcl.Program) error {
		files, diags, err := codegen.GenerateProjectFiles(project, program, req.GetLocalDependencies())
		if err != nil {
			return err
		}
		if diags.HasErrors() {
			return diags
		}
		// Written as codegen.GenerateProject does (Pulumi.yaml at the root, the rest in `main` if set),
		// with the fix of addressCompositeLiterals.
		programDir := filepath.Join(root, project.Main)
		if err := os.MkdirAll(programDir, 0o755); err != nil {
			return fmt.Errorf("create main directory: %w", err)
		}
		for name, data := range files {
			dir := programDir
			if name == "Pulumi.yaml" {
				dir = root
			} else if strings.HasSuffix(name, ".go") {
				data = addressCompositeLiterals(data)
			}
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				return fmt.Errorf("could not write output program: %w", err)
			}
		}
		return nil
	})
}
