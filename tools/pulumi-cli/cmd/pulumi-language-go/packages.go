// The program's dependencies: the Pulumi packages it needs (GetRequiredPackages), installing its
// modules (InstallDependencies), and its go.mod's requirements (GetProgramDependencies).
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"asset-delivery-as-code/tools/pulumi-cli/cmd/internal/langhost"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
	"google.golang.org/grpc"
)

// moduleInfo is the part of `go list -m -json` and `go mod download -json` used here.
type moduleInfo struct {
	Path    string
	Version string
	Dir     string
}

// goCommand runs `go ARGS` in dir with GOWORK off (only the program's own module counts) and
// returns its stdout (also when it fails); its stderr ends up in the error.
func goCommand(ctx context.Context, dir string, args ...string) ([]byte, error) {
	gobin, err := findGo()
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, gobin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("go %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// readGoMod reads the go.mod of the module holding programDir (which may be a subfolder of it):
// the nearest go.mod up from there, as the go command finds it (GOWORK off).
func readGoMod(programDir string) (moduleDir string, mod *modfile.File, err error) {
	dir, err := filepath.Abs(programDir)
	if err != nil {
		return "", nil, err
	}
	for {
		path := filepath.Join(dir, "go.mod")
		data, err := os.ReadFile(path)
		if err == nil {
			mod, err := modfile.Parse(path, data, nil)
			if err != nil {
				return "", nil, fmt.Errorf("parse %s: %w", path, err)
			}
			return dir, mod, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", nil, err
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil, fmt.Errorf("no go.mod file found: %v", programDir)
		}
		dir = parent
	}
}

func decodeModules(out []byte) ([]moduleInfo, error) {
	var modules []moduleInfo
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var m moduleInfo
		if err := dec.Decode(&m); errors.Is(err, io.EOF) {
			return modules, nil
		} else if err != nil {
			return nil, fmt.Errorf("decode module info: %w", err)
		}
		modules = append(modules, m)
	}
}

// GetRequiredPackages lists the Pulumi packages among the modules go.mod requires: those whose
// source holds a pulumi-plugin.json with `resource: true` (as the generated SDKs do), or, as
// Pulumi's host also assumes, github.com/pulumi/pulumi-<name> modules without one; that guess is
// made for direct requirements only, unlike Pulumi's host: sdk/v3 itself requires
// github.com/pulumi/pulumi-cloud-sdk, which is no provider, and `pulumi install` would otherwise try
// to download a plugin "cloud-sdk". Like Pulumi's host it is lenient: a program outside a Go
// module, or modules not found, mean no packages, not an error.
func (h *goHost) GetRequiredPackages(
	ctx context.Context, req *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	empty := &pulumirpc.GetRequiredPackagesResponse{}
	moduleDir, mod, err := readGoMod(req.GetInfo().GetProgramDirectory())
	if err != nil || len(mod.Require) == 0 {
		return empty, nil //nolint:nilerr // lenient, as Pulumi's host
	}
	paths := make([]string, 0, len(mod.Require))
	direct := map[string]bool{}
	for _, r := range mod.Require {
		paths = append(paths, r.Mod.Path)
		direct[r.Mod.Path] = !r.Indirect
	}
	modules, err := findModuleSources(ctx, moduleDir, paths)
	if err != nil {
		return empty, nil //nolint:nilerr // lenient, as Pulumi's host
	}
	packages := []*pulumirpc.PackageDependency{}
	for _, m := range modules {
		if pkg, err := packageOf(m, direct[m.Path]); err == nil {
			packages = append(packages, pkg)
		}
	}
	return &pulumirpc.GetRequiredPackagesResponse{Packages: packages}, nil
}

// findModuleSources finds where each module's source is: `go list -m -json` (a replaced module's
// folder, or the module cache), then `go mod download -json` for those not downloaded yet. In
// vendor mode only vendored modules count, as nothing can be downloaded.
func findModuleSources(ctx context.Context, moduleDir string, paths []string) ([]moduleInfo, error) {
	out, err := goCommand(ctx, moduleDir, append([]string{"list", "-m", "-json"}, paths...)...)
	if err != nil {
		return nil, err
	}
	modules, err := decodeModules(out)
	if err != nil {
		return nil, err
	}
	vendorDir := filepath.Join(moduleDir, "vendor")
	_, statErr := os.Stat(vendorDir)
	vendored := statErr == nil
	var missing []string
	for i := range modules {
		if modules[i].Dir != "" {
			continue
		}
		if vendored {
			if _, err := os.Stat(filepath.Join(vendorDir, modules[i].Path)); err == nil {
				modules[i].Dir = filepath.Join(vendorDir, modules[i].Path)
			}
		} else {
			missing = append(missing, modules[i].Path)
		}
	}
	if len(missing) > 0 {
		out, err := goCommand(ctx, moduleDir, append([]string{"mod", "download", "-json"}, missing...)...)
		if err != nil {
			return nil, err
		}
		downloaded, err := decodeModules(out)
		if err != nil {
			return nil, err
		}
		dirs := map[string]string{}
		for _, d := range downloaded {
			dirs[d.Path] = d.Dir
		}
		for i := range modules {
			if modules[i].Dir == "" {
				modules[i].Dir = dirs[modules[i].Path]
			}
		}
	}
	found := modules[:0]
	for _, m := range modules {
		if m.Dir != "" {
			found = append(found, m)
		}
	}
	return found, nil
}

// pluginJSON finds a module's pulumi-plugin.json: at its root, in go/, or one folder down (the
// generated SDK's package folder), in Pulumi's host's order.
func pluginJSON(dir string) (*plugin.PulumiPluginJSON, error) {
	paths := []string{filepath.Join(dir, "pulumi-plugin.json"), filepath.Join(dir, "go", "pulumi-plugin.json")}
	for _, pattern := range []string{filepath.Join(dir, "go", "*", "pulumi-plugin.json"), filepath.Join(dir, "*", "pulumi-plugin.json")} {
		if matches, err := filepath.Glob(pattern); err == nil {
			paths = append(paths, matches...)
		}
	}
	for _, path := range paths {
		p, err := plugin.LoadPulumiPluginJSON(path)
		if os.IsNotExist(err) {
			continue
		}
		return p, err
	}
	return nil, nil
}

func packageOf(m moduleInfo, direct bool) (*pulumirpc.PackageDependency, error) {
	meta, err := pluginJSON(m.Dir)
	if err != nil {
		return nil, fmt.Errorf("failed to load pulumi-plugin.json: %w", err)
	}
	if (meta == nil && !(direct && strings.HasPrefix(m.Path, "github.com/pulumi/pulumi-"))) || (meta != nil && !meta.Resource) {
		return nil, errors.New("module is not a pulumi provider")
	}
	name := ""
	if meta != nil {
		name = meta.Name
	}
	if name == "" {
		// github.com/pulumi/pulumi-aws/sdk/... => aws
		parts := strings.Split(m.Path, "/")
		if len(parts) < 3 || !strings.Contains(parts[2], "-") {
			return nil, errors.New("module is not a pulumi provider")
		}
		name = strings.SplitN(parts[2], "-", 2)[1]
	}
	version := m.Version
	if meta != nil && meta.Version != "" {
		version = meta.Version
	}
	version, err = pluginVersion(version)
	if err != nil {
		return nil, err
	}
	pkg := &pulumirpc.PackageDependency{Name: name, Version: version, Kind: "resource"}
	if meta != nil {
		pkg.Server = meta.Server
		if p := meta.Parameterization; p != nil {
			pkg.Parameterization = &pulumirpc.PackageParameterization{Name: p.Name, Version: p.Version, Value: p.Value}
		}
	}
	return pkg, nil
}

// pluginVersion turns a module version into the plugin's: a pseudo-version (a commit after a tag)
// names the tagged release it was made from, as Pulumi's host does.
func pluginVersion(v string) (string, error) {
	canonical := "v" + strings.TrimPrefix(v, "v")
	if !semver.IsValid(canonical) {
		return "", errors.New("module does not have semver compatible version")
	}
	if !module.IsPseudoVersion(canonical) {
		return v, nil
	}
	base, err := module.PseudoVersionBase(canonical)
	if err != nil || base == "" {
		return "", errors.New("invalid pseudo-version with no prior tag")
	}
	return base, nil
}

// InstallDependencies gets the program's modules, streaming the go command's output. A program
// whose go.mod and go.sum already describe its build gets `go mod download`, which fetches the
// modules and rewrites nothing. Only when they fall short of its imports (a project `pulumi new` or
// `pulumi convert` just wrote, an SDK `pulumi package add` just linked) does it say which
// requirements are missing and run `go mod tidy`, which rewrites them (Pulumi's host runs it for
// every program); any other failure is reported as it is.
func (h *goHost) InstallDependencies(
	req *pulumirpc.InstallDependenciesRequest, server grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse],
) error {
	return langhost.InstallDependencies(req, server, installModules)
}

func installModules(ctx context.Context, dir string, stdout, stderr io.Writer) error {
	gobin, err := findGo()
	if err != nil {
		return err
	}
	goRun := func(args ...string) error {
		cmd := exec.CommandContext(ctx, gobin, args...)
		cmd.Dir = dir
		cmd.Stdout, cmd.Stderr = stdout, stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("`go %s` failed to install dependencies: %w", strings.Join(args, " "), err)
		}
		return nil
	}
	missing, err := missingRequirements(ctx, dir)
	if err != nil {
		return err
	}
	if len(missing) == 0 {
		return goRun("mod", "download")
	}
	named := missing
	if len(named) > 5 {
		named = append(named[:5:5], fmt.Sprintf("and %d more", len(missing)-5))
	}
	fmt.Fprintf(stdout, "go.mod and go.sum lack what the program imports (%s): running go mod tidy\n", strings.Join(named, ", "))
	return goRun("mod", "tidy")
}

// missingRequirements asks the go command what `go mod tidy` would add (`go mod tidy -diff`, which
// writes nothing): the requirements go.mod lacks or has at too low a version, and the modules go.sum
// has no checksum for, as "path version". What tidy would only remove or re-mark (an unused or
// indirect requirement) is not missing: a build works without that change.
func missingRequirements(ctx context.Context, dir string) ([]string, error) {
	diff, err := goCommand(ctx, dir, "mod", "tidy", "-diff")
	var exitErr *exec.ExitError
	switch {
	case err == nil:
		return nil, nil
	case !errors.As(err, &exitErr) || exitErr.ExitCode() != 1 || len(diff) == 0:
		return nil, err // the go command failed: not a reason to rewrite go.mod
	}
	return addedRequirements(diff), nil
}

// addedRequirements reads the unified diff of `go mod tidy -diff`: a go.mod requirement added (not
// one that only changes its `// indirect` mark), or a go.sum line added.
func addedRequirements(diff []byte) []string {
	var added []string
	removed := map[string]bool{}
	seen := map[string]bool{}
	file := ""
	for _, line := range strings.Split(string(diff), "\n") {
		switch {
		case strings.HasPrefix(line, "+++ "):
			file = filepath.Base(strings.TrimSpace(strings.TrimPrefix(line, "+++ ")))
			continue
		case strings.HasPrefix(line, "--- "):
			continue
		}
		if line == "" || (line[0] != '+' && line[0] != '-') {
			continue
		}
		fields := strings.Fields(strings.TrimPrefix(line[1:], "require"))
		if len(fields) < 2 || !strings.HasPrefix(fields[1], "v") {
			continue
		}
		requirement := fields[0] + " " + strings.TrimSuffix(fields[1], "/go.mod")
		switch {
		case line[0] == '-' && file == "go.mod":
			removed[requirement] = true
		case line[0] == '+' && !seen[requirement]:
			seen[requirement] = true
			added = append(added, requirement)
		}
	}
	missing := added[:0]
	for _, requirement := range added {
		if !removed[requirement] {
			missing = append(missing, requirement)
		}
	}
	return missing
}

// Link adds local SDKs (`pulumi package add`, `pulumi convert` of parameterized packages) to the
// program's go.mod: each SDK folder must be a module (hold a go.mod); it is required at v0.0.0 and
// replaced by its folder, the way a Go program uses a module that is not published.
func (h *goHost) Link(_ context.Context, req *pulumirpc.LinkRequest) (*pulumirpc.LinkResponse, error) {
	programDir := req.GetInfo().GetProgramDirectory()
	goModPath := filepath.Join(programDir, "go.mod")
	data, err := os.ReadFile(goModPath)
	if err != nil {
		return nil, fmt.Errorf("read go.mod: %w", err)
	}
	mod, err := modfile.Parse(goModPath, data, nil)
	if err != nil {
		return nil, fmt.Errorf("parse go.mod: %w", err)
	}
	var imports []string
	for _, dep := range req.GetPackages() {
		sdkDir := dep.GetPath()
		if !filepath.IsAbs(sdkDir) {
			sdkDir = filepath.Join(programDir, sdkDir)
		}
		sdkModData, err := os.ReadFile(filepath.Join(sdkDir, "go.mod"))
		if err != nil {
			return nil, fmt.Errorf("the SDK in %s is no Go module (no go.mod there): %w", dep.GetPath(), err)
		}
		sdkModule := modfile.ModulePath(sdkModData)
		if sdkModule == "" {
			return nil, fmt.Errorf("%s/go.mod names no module", dep.GetPath())
		}
		target, err := filepath.Rel(programDir, sdkDir)
		if err != nil {
			return nil, err
		}
		if !strings.HasPrefix(target, ".") {
			target = "./" + filepath.ToSlash(target)
		}
		if err := mod.AddRequire(sdkModule, "v0.0.0"); err != nil {
			return nil, fmt.Errorf("add require %s: %w", sdkModule, err)
		}
		if err := mod.AddReplace(sdkModule, "", target, ""); err != nil {
			return nil, fmt.Errorf("add replace %s: %w", sdkModule, err)
		}
		importPath := sdkModule // the package folder beside its pulumi-plugin.json, when there is one
		if found, _ := filepath.Glob(filepath.Join(sdkDir, "*", "pulumi-plugin.json")); len(found) == 1 {
			importPath = sdkModule + "/" + filepath.Base(filepath.Dir(found[0]))
		}
		imports = append(imports, fmt.Sprintf("import %q", importPath))
	}
	if len(imports) == 0 {
		return &pulumirpc.LinkResponse{}, nil
	}
	mod.Cleanup()
	out, err := mod.Format()
	if err != nil {
		return nil, fmt.Errorf("format go.mod: %w", err)
	}
	if err := os.WriteFile(goModPath, out, 0o644); err != nil {
		return nil, fmt.Errorf("write go.mod: %w", err)
	}
	return &pulumirpc.LinkResponse{ImportInstructions: strings.Join(imports, "\n")}, nil
}

// GetProgramDependencies lists go.mod's requirements (direct ones unless transitive ones are asked
// for); a module replaced by a local folder has no version.
func (h *goHost) GetProgramDependencies(
	ctx context.Context, req *pulumirpc.GetProgramDependenciesRequest,
) (*pulumirpc.GetProgramDependenciesResponse, error) {
	_, mod, err := readGoMod(req.GetInfo().GetProgramDirectory())
	if err != nil {
		return nil, fmt.Errorf("load go.mod: %w", err)
	}
	replaced := map[string]bool{}
	for _, r := range mod.Replace {
		replaced[strings.TrimRight(r.Old.Path, "/")] = true
	}
	deps := []*pulumirpc.DependencyInfo{}
	for _, r := range mod.Require {
		if r.Indirect && !req.GetTransitiveDependencies() {
			continue
		}
		v := r.Mod.Version
		if replaced[strings.TrimRight(r.Mod.Path, "/")] {
			v = ""
		}
		deps = append(deps, &pulumirpc.DependencyInfo{Name: r.Mod.Path, Version: v})
	}
	return &pulumirpc.GetProgramDependenciesResponse{Dependencies: deps}, nil
}
