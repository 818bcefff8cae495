// Package codegenhost holds what every language host of this repo does around Pulumi's code
// generators (github.com/pulumi/pulumi/pkg/v3/codegen/<language>): bind the package schema or the
// PCL program the CLI sends, with schemas loaded through the engine's loader server named in the
// request (so a package a program uses is bound from its plugin's own GetSchema, as the CLI does it),
// and write the generated files. Binding problems go back to the CLI as diagnostics, not errors.
//
// Credit: the steps mirror Pulumi's own hosts (pulumi/pulumi, sdk/{nodejs,python}/cmd/pulumi-language-*,
// GeneratePackage / GenerateProgram / GenerateProject, Apache-2.0), written anew: the same bind
// options (output-versioned invokes preferred; lenient binding unless the request asks for strict).
package codegenhost

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/pkg/v3/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	codegenrpc "github.com/pulumi/pulumi/sdk/v3/proto/go/codegen"
)

// Loader is the engine's schema loader for one request; Close it when the request is done.
type Loader struct {
	schema.ReferenceLoader
	client *schema.LoaderClient
}

func (l *Loader) Close() error { return l.client.Close() }

// Connect dials the loader server a request names (its LoaderTarget).
func Connect(target string) (*Loader, error) {
	client, err := schema.NewLoaderClient(target)
	if err != nil {
		return nil, fmt.Errorf("connecting to the engine's schema loader: %w", err)
	}
	return &Loader{ReferenceLoader: schema.NewCachedLoader(client), client: client}, nil
}

// BindPackage binds the package schema (JSON) of a GeneratePackage request.
func BindPackage(schemaJSON string, loader schema.ReferenceLoader) (*schema.Package, hcl.Diagnostics, error) {
	var spec schema.PackageSpec
	if err := json.Unmarshal([]byte(schemaJSON), &spec); err != nil {
		return nil, nil, fmt.Errorf("the package schema is not valid JSON: %w", err)
	}
	return schema.BindSpec(spec, loader, schema.ValidationOptions{AllowDanglingReferences: true})
}

// bindOptions: invokes in their output form (`get_source_output`, `getSourceOutput`), as Pulumi's
// hosts bind; lenient binding unless the CLI asks for strict.
func bindOptions(strict bool) []pcl.BindOption {
	options := []pcl.BindOption{pcl.PreferOutputVersionedInvokes}
	if !strict {
		options = append(options, pcl.NonStrictBindOptions()...)
	}
	return options
}

// BindProgram parses and binds the PCL files of a GenerateProgram request (`pulumi import` sends
// the imported resources this way). A nil program comes with the diagnostics that explain it.
func BindProgram(source map[string]string, loader schema.ReferenceLoader, strict bool) (*pcl.Program, hcl.Diagnostics, error) {
	parser := syntax.NewParser()
	names := make([]string, 0, len(source))
	for name := range source {
		names = append(names, name)
	}
	sort.Strings(names) // a stable order: the same PCL always gives the same program
	for _, name := range names {
		if err := parser.ParseFile(strings.NewReader(source[name]), name); err != nil {
			return nil, nil, fmt.Errorf("parsing %s: %w", name, err)
		}
	}
	if parser.Diagnostics.HasErrors() {
		return nil, parser.Diagnostics, nil
	}
	program, diags, err := pcl.BindProgram(parser.Files, loader, bindOptions(strict)...)
	if diags.HasErrors() {
		return nil, diags, nil
	}
	if err != nil {
		return nil, diags, err
	}
	if program == nil {
		return nil, diags, errors.New("binding the program gave no program and no diagnostics")
	}
	return program, diags, nil
}

// BindDirectory binds a folder of PCL (`pulumi convert`).
func BindDirectory(dir string, loader schema.ReferenceLoader, strict bool) (*pcl.Program, hcl.Diagnostics, error) {
	return pcl.BindDirectory(dir, loader, bindOptions(strict)...)
}

// Diagnostics converts HCL diagnostics for a response.
func Diagnostics(diags hcl.Diagnostics) []*codegenrpc.Diagnostic {
	return plugin.HclDiagnosticsToRPCDiagnostics(diags)
}

// WriteFiles writes each generated file under dir, in name order.
func WriteFiles(dir string, files map[string][]byte) error {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		out := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return fmt.Errorf("creating the folder of %s: %w", name, err)
		}
		if err := os.WriteFile(out, files[name], 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
	}
	return nil
}

// The three code-generation requests, each answered the same way in every host: connect to the
// request's loader, bind what it carries (binding problems answered as diagnostics), then hand the
// bound package or program to the host's generator.

// PackageGenerator writes a bound package's SDK as files keyed by path.
type PackageGenerator func(pkg *schema.Package, loader schema.ReferenceLoader) (map[string][]byte, error)

// GeneratePackage answers `pulumi package gen-sdk` and `pulumi package add`: the SDK's files are
// written into req.Directory (the CLI has emptied it).
func GeneratePackage(req *pulumirpc.GeneratePackageRequest, generate PackageGenerator) (*pulumirpc.GeneratePackageResponse, error) {
	loader, err := Connect(req.GetLoaderTarget())
	if err != nil {
		return nil, err
	}
	defer loader.Close()
	pkg, diags, err := BindPackage(req.GetSchema(), loader)
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return &pulumirpc.GeneratePackageResponse{Diagnostics: Diagnostics(diags)}, nil
	}
	files, err := generate(pkg, loader)
	if err != nil {
		return nil, err
	}
	if err := WriteFiles(req.GetDirectory(), files); err != nil {
		return nil, err
	}
	return &pulumirpc.GeneratePackageResponse{Diagnostics: Diagnostics(diags)}, nil
}

// ProgramGenerator turns a bound program into source files keyed by name.
type ProgramGenerator func(program *pcl.Program) (map[string][]byte, hcl.Diagnostics, error)

// GenerateProgram answers `pulumi import` (and `pulumi convert --generate-only`): the PCL it sends,
// as source in the host's language.
func GenerateProgram(req *pulumirpc.GenerateProgramRequest, generate ProgramGenerator) (*pulumirpc.GenerateProgramResponse, error) {
	loader, err := Connect(req.GetLoaderTarget())
	if err != nil {
		return nil, err
	}
	defer loader.Close()
	program, diags, err := BindProgram(req.GetSource(), loader, req.GetStrict())
	if err != nil || program == nil {
		return &pulumirpc.GenerateProgramResponse{Diagnostics: Diagnostics(diags)}, err
	}
	files, genDiags, err := generate(program)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.GenerateProgramResponse{Source: files, Diagnostics: Diagnostics(append(diags, genDiags...))}, nil
}

// ProjectGenerator writes a whole project (Pulumi.yaml and the program) into targetDir.
type ProjectGenerator func(targetDir string, project workspace.Project, program *pcl.Program) error

// GenerateProject answers `pulumi convert --language <lang>`: a folder of PCL as a project.
func GenerateProject(req *pulumirpc.GenerateProjectRequest, generate ProjectGenerator) (*pulumirpc.GenerateProjectResponse, error) {
	loader, err := Connect(req.GetLoaderTarget())
	if err != nil {
		return nil, err
	}
	defer loader.Close()
	program, diags, err := BindDirectory(req.GetSourceDirectory(), loader, req.GetStrict())
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return &pulumirpc.GenerateProjectResponse{Diagnostics: Diagnostics(diags)}, nil
	}
	var project workspace.Project
	if err := json.Unmarshal([]byte(req.GetProject()), &project); err != nil {
		return nil, fmt.Errorf("the project is not valid JSON: %w", err)
	}
	if err := generate(req.GetTargetDirectory(), project, program); err != nil {
		return nil, err
	}
	return &pulumirpc.GenerateProjectResponse{Diagnostics: Diagnostics(diags)}, nil
}
