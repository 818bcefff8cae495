// Running programs and their dependencies: Run, InstallDependencies, the plugins the installed
// packages need, and what `pulumi about` shows. The Python found (a virtual environment's, or python3
// on PATH) and pip are driven through github.com/pulumi/pulumi/sdk/v3/python/toolchain, the helpers
// Pulumi's own host uses.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"asset-delivery-as-code/tools/pulumi-cli/cmd/internal/langhost"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/pulumi/pulumi/sdk/v3/python/toolchain"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// pythonProject is the Python of the project a request names, per Pulumi.yaml's runtime options:
// `virtualenv` (a folder, relative to the project's), `toolchain` (pip, the default; poetry, uv) and
// `typechecker` (mypy or pyright, run on the program before each run), as Pulumi's host reads them.
type pythonProject struct {
	toolchain.Toolchain
	typechecker string // "", "mypy" or "pyright"
}

func projectToolchain(info *pulumirpc.ProgramInfo) (pythonProject, error) {
	if info == nil {
		return pythonProject{}, errors.New("the request names no program (ProgramInfo is missing)")
	}
	options := toolchain.PythonOptions{
		Root:       info.GetRootDirectory(),
		ProgramDir: info.GetProgramDirectory(),
		Toolchain:  toolchain.Pip,
	}
	values, err := langhost.ReadOptions(info.GetOptions(),
		langhost.Option{Name: "virtualenv"},
		langhost.Option{Name: "toolchain", Choices: []string{"pip", "poetry", "uv"}},
		langhost.Option{Name: "typechecker", Choices: []string{"mypy", "pyright"}},
	)
	if err != nil {
		return pythonProject{}, err
	}
	options.Virtualenv = values["virtualenv"]
	switch values["toolchain"] {
	case "poetry":
		options.Toolchain = toolchain.Poetry
	case "uv":
		options.Toolchain = toolchain.Uv
	}
	project := pythonProject{typechecker: values["typechecker"]}
	tc, err := toolchain.ResolveToolchain(options)
	project.Toolchain = tc
	return project, err
}

// typecheck runs the project's typechecker on the program's folder (the virtual environment left
// out), its report going to the user; an error when it finds a problem or is not installed.
func (p pythonProject) typecheck(ctx context.Context, programDir string) error {
	if p.typechecker == "" {
		return nil
	}
	probe, err := p.Command(ctx, "-c", "import importlib.util, sys; sys.exit(importlib.util.find_spec(sys.argv[1]) is None)", p.typechecker)
	if err != nil {
		return err
	}
	if probe.Run() != nil {
		return fmt.Errorf("The typechecker option is set to %s, but %s is not installed: add it to requirements.txt (pip install %s)",
			p.typechecker, p.typechecker, p.typechecker)
	}
	args := []string{"-m", p.typechecker}
	if venv, err := p.VirtualEnvPath(ctx); err == nil && venv != "" && p.typechecker == "mypy" {
		if rel, err := filepath.Rel(programDir, venv); err == nil && !strings.HasPrefix(rel, "..") {
			args = append(args, "--exclude", rel)
		}
	}
	cmd, err := p.Command(ctx, append(args, programDir)...)
	if err != nil {
		return err
	}
	cmd.Dir = programDir
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s failed: %w", p.typechecker, err)
	}
	return nil
}

// InstallDependencies creates the project's virtual environment (when it names one) and installs
// requirements.txt into it, streaming pip's output.
func (h *pythonHost) InstallDependencies(
	req *pulumirpc.InstallDependenciesRequest,
	server grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse],
) error {
	tc, err := projectToolchain(req.GetInfo())
	if err != nil {
		return err
	}
	return langhost.InstallDependencies(req, server, func(ctx context.Context, dir string, stdout, stderr io.Writer) error {
		return tc.InstallDependencies(ctx, dir, req.GetUseLanguageVersionTools(), true, stdout, stderr)
	})
}

// Run executes the program through the exec shim, with the project's Python.
func (h *pythonHost) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	info := req.GetInfo()
	tc, err := projectToolchain(info)
	if err != nil {
		return nil, err
	}
	if err := tc.ValidateVenv(ctx); err != nil {
		return nil, err
	}
	programDir := info.GetProgramDirectory()
	if err := tc.typecheck(ctx, programDir); err != nil {
		return nil, err
	}
	entryPoint := info.GetEntryPoint()
	if entryPoint == "" {
		entryPoint = "."
	}

	// Checked again right before Python runs it: the folder and the shim are still this user's alone.
	if h.ownShim {
		if err := langhost.OwnedFile(h.shim, "pulumi-language-python"); err != nil {
			return nil, err
		}
	}
	args := []string{h.shim}
	flag := func(name, value string) {
		if value != "" {
			args = append(args, "--"+name, value)
		}
	}
	flag("monitor", req.GetMonitorAddress())
	flag("engine", h.Engine())
	flag("project", req.GetProject())
	flag("stack", req.GetStack())
	flag("organization", req.GetOrganization())
	flag("root_directory", info.GetRootDirectory())
	flag("pwd", programDir)
	flag("dry_run", strconv.FormatBool(req.GetDryRun()))
	flag("parallel", strconv.Itoa(int(req.GetParallel())))
	flag("tracing", h.tracing)
	args = append(args, entryPoint)
	args = append(args, req.GetArgs()...)

	configEnv, err := langhost.ConfigEnv(req.GetConfig(), req.GetConfigSecretKeys())
	if err != nil {
		return nil, err
	}
	cmd, err := tc.Command(ctx, args...)
	if err != nil {
		return nil, err
	}
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, configEnv...)
	cmd.Dir = programDir
	return langhost.RunProgram(cmd), nil
}

func (h *pythonHost) About(ctx context.Context, req *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	tc, err := projectToolchain(req.GetInfo())
	if err != nil {
		return nil, err
	}
	about, err := tc.About(ctx)
	if err != nil {
		return nil, fmt.Errorf("failed to get version: %w", err)
	}
	return &pulumirpc.AboutResponse{
		Executable: about.PythonExecutable,
		Version:    about.PythonVersion.String(),
		Metadata:   map[string]string{"toolchain": about.ToolchainVersion.String(), "languageHost": "asset-delivery " + version},
	}, nil
}

func (h *pythonHost) GetProgramDependencies(
	ctx context.Context, req *pulumirpc.GetProgramDependenciesRequest,
) (*pulumirpc.GetProgramDependenciesResponse, error) {
	tc, err := projectToolchain(req.GetInfo())
	if err != nil {
		return nil, err
	}
	packages, err := tc.ListPackages(ctx, req.GetTransitiveDependencies())
	if err != nil {
		return nil, err
	}
	deps := make([]*pulumirpc.DependencyInfo, len(packages))
	for i, p := range packages {
		deps[i] = &pulumirpc.DependencyInfo{Name: p.Name, Version: p.Version}
	}
	return &pulumirpc.GetProgramDependenciesResponse{Dependencies: deps}, nil
}

// GetRequiredPackages names the resource plugin of each installed package that says it has one.
func (h *pythonHost) GetRequiredPackages(
	ctx context.Context, req *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	packages, err := h.requiredPackages(ctx, req.GetInfo())
	if err != nil {
		return nil, err
	}
	return &pulumirpc.GetRequiredPackagesResponse{Packages: packages}, nil
}

// GetRequiredPlugins: the same, for engines that ask in the older form.
func (h *pythonHost) GetRequiredPlugins(
	ctx context.Context, req *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	packages, err := h.requiredPackages(ctx, req.GetInfo())
	if err != nil {
		return nil, err
	}
	plugins := make([]*pulumirpc.PluginDependency, 0, len(packages))
	for _, p := range packages {
		if p.GetParameterization() == nil {
			plugins = append(plugins, &pulumirpc.PluginDependency{Name: p.GetName(), Kind: p.GetKind(), Version: p.GetVersion(), Server: p.GetServer()})
		}
	}
	return &pulumirpc.GetRequiredPluginsResponse{Plugins: plugins}, nil
}

// requiredPackages reads pulumi-plugin.json in each installed package (`pip list -v` gives where
// each lives). A package with none names no plugin, except Pulumi's own `pulumi-NAME` providers,
// whose plugin is NAME at the package's version, as Pulumi's host infers it.
//
// Asked before a program's first run, it also makes the virtual environment when Pulumi.yaml names
// one that does not exist yet (and installs requirements.txt into it), pip's output shown by the
// engine, as Pulumi's host does: `pulumi up` works on a fresh checkout.
func (h *pythonHost) requiredPackages(ctx context.Context, info *pulumirpc.ProgramInfo) ([]*pulumirpc.PackageDependency, error) {
	tc, err := projectToolchain(info)
	if err != nil {
		return nil, err
	}
	stdout, stderr, done, err := h.engineLog(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	if err := tc.EnsureVenv(ctx, info.GetProgramDirectory(), false, true, stdout, stderr); err != nil {
		return nil, err
	}
	cmd, err := tc.ModuleCommand(ctx, "pip", "list", "-v", "--format", "json", "--disable-pip-version-check")
	if err != nil {
		return nil, err
	}
	cmd.Dir = info.GetProgramDirectory()
	var pipErr bytes.Buffer
	cmd.Stderr = &pipErr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("listing the installed packages (%s): %w: %s", strings.Join(cmd.Args, " "), err, strings.TrimSpace(pipErr.String()))
	}
	var installed []struct {
		Name     string `json:"name"`
		Version  string `json:"version"`
		Location string `json:"location"`
	}
	// pip may follow the JSON with other text: decode the first value only.
	if err := json.NewDecoder(bytes.NewReader(out)).Decode(&installed); err != nil {
		return nil, fmt.Errorf("reading `pip list` output: %w", err)
	}
	var packages []*pulumirpc.PackageDependency
	for _, p := range installed {
		if _, none := packagesWithoutPlugins[p.Name]; none {
			continue
		}
		file := filepath.Join(p.Location, strings.ReplaceAll(p.Name, "-", "_"), "pulumi-plugin.json")
		meta, err := plugin.LoadPulumiPluginJSON(file)
		switch {
		case os.IsNotExist(err):
			if !strings.HasPrefix(p.Name, "pulumi-") && !strings.HasPrefix(p.Name, "pulumi_") {
				continue
			}
			meta = &plugin.PulumiPluginJSON{Resource: true}
		case err != nil:
			return nil, fmt.Errorf("reading %s: %w", file, err)
		}
		if !meta.Resource {
			continue
		}
		dep := &pulumirpc.PackageDependency{Kind: "resource", Name: meta.Name, Version: meta.Version, Server: meta.Server}
		if dep.Name == "" {
			dep.Name = strings.ReplaceAll(p.Name[len("pulumi-"):], "_", "-")
		}
		if dep.Version == "" {
			if dep.Version = semverOfPackageVersion(p.Version); dep.Version == "" {
				continue // no plugin version can be told from it (Pulumi's host skips these too)
			}
		}
		if !strings.HasPrefix(dep.Version, "v") {
			dep.Version = "v" + dep.Version
		}
		if pz := meta.Parameterization; pz != nil {
			dep.Parameterization = &pulumirpc.PackageParameterization{Name: pz.Name, Version: pz.Version, Value: pz.Value}
		}
		packages = append(packages, dep)
	}
	return packages, nil
}

// packagesWithoutPlugins: Pulumi's own packages with no plugin and no pulumi-plugin.json to say so
// (pip lists a name with `-` or `_`, depending on the setuptools that built it).
var packagesWithoutPlugins = map[string]struct{}{
	"pulumi-policy": {}, "pulumi_policy": {}, "pulumi-esc-sdk": {}, "pulumi_esc_sdk": {},
}

// engineLog gives writers whose lines the engine shows as ephemeral messages of this run (info and
// error), and a function to call when done with them.
func (h *pythonHost) engineLog(ctx context.Context) (io.Writer, io.Writer, func(), error) {
	engineAddress := h.Engine()
	if engineAddress == "" {
		return os.Stdout, os.Stderr, func() {}, nil
	}
	conn, err := grpc.NewClient(engineAddress, grpc.WithTransportCredentials(insecure.NewCredentials()), rpcutil.GrpcChannelOptions())
	if err != nil {
		return nil, nil, nil, fmt.Errorf("language host could not make connection to engine: %w", err)
	}
	engine := pulumirpc.NewEngineClient(conn)
	streamID := rand.Int31() //nolint:gosec // a stream id, not a secret
	writer := func(severity pulumirpc.LogSeverity) io.Writer {
		return streamWriter(func(p []byte) error {
			_, err := engine.Log(ctx, &pulumirpc.LogRequest{
				Message: strings.ToValidUTF8(string(p), "\uFFFD"), Ephemeral: true, StreamId: streamID, Severity: severity,
			})
			return err
		})
	}
	return writer(pulumirpc.LogSeverity_INFO), writer(pulumirpc.LogSeverity_ERROR), func() { _ = conn.Close() }, nil
}

type streamWriter func([]byte) error

func (w streamWriter) Write(p []byte) (int, error) {
	if err := w(p); err != nil {
		return 0, err
	}
	return len(p), nil
}

var pep440Release = regexp.MustCompile(`^(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:(a|b|rc)(\d+))?$`)

// semverOfPackageVersion turns a PEP 440 release (1.2, 1.2.3, 1.2.3a4, 1.2.3rc1) into a plugin
// version (1.2.0, 1.2.3, 1.2.3-alpha.4, 1.2.3-rc.1); "" for any other form.
func semverOfPackageVersion(v string) string {
	m := pep440Release.FindStringSubmatch(v)
	if m == nil {
		return ""
	}
	parts := []string{m[1], m[2], m[3]}
	for i, p := range parts {
		if p == "" {
			parts[i] = "0"
		}
	}
	out := strings.Join(parts, ".")
	if m[4] != "" {
		out += "-" + map[string]string{"a": "alpha", "b": "beta", "rc": "rc"}[m[4]] + "." + m[5]
	}
	return out
}
