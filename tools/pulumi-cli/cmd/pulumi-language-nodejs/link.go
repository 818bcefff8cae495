// Link: how `pulumi convert --language typescript` and `pulumi package add` make a program use an
// SDK they have just generated locally (GeneratePackage with `local`): the program's package.json
// gains a `file:` dependency on the SDK's folder, written by the program's package manager
// (github.com/pulumi/pulumi/sdk/v3/nodejs/npm, the code Pulumi's own host runs), and the user is
// told the import line to write.
//
// Credit: this mirrors Pulumi's own host (pulumi/pulumi, sdk/nodejs/cmd/pulumi-language-nodejs,
// Link, Apache-2.0), written anew: the npm package name from the schema's `language.nodejs`
// (`packageName`, else `@<namespace>/<name>`, else `@pulumi/<name>`), the package manager chosen
// from the program's lock files, TypeScript's `import * as` form.
package main

import (
	"context"
	"fmt"
	"strings"

	"asset-delivery-as-code/tools/pulumi-cli/cmd/internal/codegenhost"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/pkg/v3/codegen/cgstrings"
	codegen "github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/nodejs/npm"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

func (h *nodeHost) Link(ctx context.Context, req *pulumirpc.LinkRequest) (*pulumirpc.LinkResponse, error) {
	loader, err := codegenhost.Connect(req.GetLoaderTarget())
	if err != nil {
		return nil, err
	}
	defer loader.Close()
	dir := req.GetInfo().GetProgramDirectory()
	manager, err := npm.ResolvePackageManager(npm.AutoPackageManager, dir)
	if err != nil {
		return nil, err
	}

	var imports strings.Builder
	for _, dep := range req.GetPackages() {
		descriptor, err := packageDescriptor(dep.GetPackage())
		if err != nil {
			return nil, err
		}
		ref, err := schema.LoadPackageReferenceV2(ctx, loader, descriptor)
		if err != nil {
			return nil, fmt.Errorf("loading the schema of %s: %w", descriptor.Name, err)
		}
		pkg, err := ref.Definition()
		if err != nil {
			return nil, err
		}
		if err := pkg.ImportLanguages(map[string]schema.Language{"nodejs": codegen.Importer}); err != nil {
			return nil, err
		}
		name := npmPackageName(pkg)
		if err := manager.Link(ctx, dir, name, dep.GetPath()); err != nil {
			return nil, err
		}
		fmt.Fprintf(&imports, "  import * as %s from %q;\n", cgstrings.Camel(ref.Name()), name)
	}
	if imports.Len() == 0 {
		return &pulumirpc.LinkResponse{}, nil
	}
	return &pulumirpc.LinkResponse{
		ImportInstructions: "You can import the SDK in your TypeScript code with:\n\n" + imports.String(),
	}, nil
}

// packageDescriptor: the package the engine names, as the schema loader wants it.
func packageDescriptor(dep *pulumirpc.PackageDependency) (*schema.PackageDescriptor, error) {
	descriptor := &schema.PackageDescriptor{Name: dep.GetName(), DownloadURL: dep.GetServer()}
	if dep.GetVersion() != "" {
		version, err := semver.ParseTolerant(dep.GetVersion())
		if err != nil {
			return nil, fmt.Errorf("package %s: version %q: %w", dep.GetName(), dep.GetVersion(), err)
		}
		descriptor.Version = &version
	}
	if p := dep.GetParameterization(); p != nil {
		descriptor.Parameterization = &schema.ParameterizationDescriptor{Name: p.GetName(), Value: p.GetValue()}
		if p.GetVersion() != "" {
			version, err := semver.ParseTolerant(p.GetVersion())
			if err != nil {
				return nil, fmt.Errorf("package %s: version %q: %w", p.GetName(), p.GetVersion(), err)
			}
			descriptor.Parameterization.Version = version
		}
	}
	return descriptor, nil
}

// npmPackageName is the name the generated SDK's package.json carries.
func npmPackageName(pkg *schema.Package) string {
	if info, ok := pkg.Language["nodejs"].(codegen.NodePackageInfo); ok && info.PackageName != "" {
		return info.PackageName
	}
	if pkg.Namespace != "" {
		return "@" + pkg.Namespace + "/" + pkg.Name
	}
	return "@pulumi/" + pkg.Name
}
