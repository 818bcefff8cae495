// Command pulumi-language-nodejs is this repo's small stand-in for Pulumi's Node.js language host.
//
// Why it exists: Pulumi's own host lives in the Go module
// github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3, which has no tags; the Go
// module proxy reachable from our machines answers 403 for its pseudo-versions (the one of the
// v3.248.0 release commit included), so it cannot be built offline. The CLI itself
// (github.com/pulumi/pulumi/pkg/v3 v3.248.0) builds fine; see tools/install-pulumi.sh.
//
// What it does: the part of the LanguageRuntime gRPC service that `pulumi up / preview / refresh /
// destroy` use to run a Node.js program (JavaScript or TypeScript) whose node_modules are already
// installed. Run starts `node <@pulumi/pulumi>/cmd/run` exactly as the SDK's entry point expects
// (the flags and PULUMI_* variables it reads), resolving @pulumi/pulumi from the program's folder.
// GetRequiredPackages reports none (plugins load on demand; nothing can be downloaded here anyway),
// InstallDependencies runs `npm install` (or the package manager Pulumi.yaml names), About and
// GetPluginInfo answer.
//
// RunPlugin runs Node.js policy packs (run_plugin.go). Code generation (codegen.go): GeneratePackage
// (`pulumi package gen-sdk --language nodejs`), GenerateProgram (`pulumi import` prints TypeScript),
// GenerateProject (`pulumi convert --language typescript`), on Pulumi's own TypeScript generator;
// Link (link.go: a locally generated SDK into the program's package.json, `pulumi package add`).
//
// Not implemented (the gRPC "unimplemented" error): RunPlugin of other kinds (providers written as
// Node.js plugin projects), Pack. Inline programs of the Automation API need no language host at all.
//
// Credit: what the engine and users see from Run mirrors Pulumi's own host (pulumi/pulumi,
// sdk/nodejs/cmd/pulumi-language-nodejs/main.go, Apache-2.0), written anew here: the arguments and
// PULUMI_NODEJS_* variables of @pulumi/pulumi's run script, and the message "could not find node on
// the $PATH". The config, the exit code (Bail when the run script has reported its error) and the
// messages of Run are cmd/internal/langhost's, shared by every host of this repo.
package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"asset-delivery-as-code/tools/pulumi-cli/cmd/internal/langhost"

	"github.com/pulumi/pulumi/sdk/v3/nodejs/npm"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/structpb"
)

// version and buildID are stamped by tools/install-pulumi.sh (-X main.version=... -X main.buildID=...);
// `pulumi-language-nodejs -version` prints them so the script can tell a stale build.
var (
	version = "3.274.1"
	buildID = "dev"
)

func main() {
	langhost.Main(langhost.Host{
		Name:    "pulumi-language-nodejs",
		Version: version,
		BuildID: buildID,
		New: func(engineAddress, tracing string) (pulumirpc.LanguageRuntimeServer, func(), error) {
			return &nodeHost{Runtime: langhost.NewRuntime(version, engineAddress), tracing: tracing}, nil, nil
		},
	})
}

type nodeHost struct {
	*langhost.Runtime // Handshake, GetPluginInfo, RuntimeOptionsPrompts, the engine's address
	tracing           string
}

func (h *nodeHost) GetRequiredPlugins(
	context.Context, *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

func (h *nodeHost) GetRequiredPackages(
	context.Context, *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

func (h *nodeHost) About(context.Context, *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, errors.New("could not find node on the $PATH")
	}
	out, err := exec.Command(node, "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("running %s --version: %w", node, err)
	}
	return &pulumirpc.AboutResponse{
		Executable: node,
		Version:    strings.TrimPrefix(strings.TrimSpace(string(out)), "v"),
		Metadata:   map[string]string{"languageHost": "asset-delivery stand-in " + version},
	}, nil
}

func (h *nodeHost) GetProgramDependencies(
	context.Context, *pulumirpc.GetProgramDependenciesRequest,
) (*pulumirpc.GetProgramDependenciesResponse, error) {
	return &pulumirpc.GetProgramDependenciesResponse{}, nil
}

// InstallDependencies installs the program's packages with its package manager (Pulumi.yaml's
// `runtime.options.packagemanager`; npm when it names none), streaming its output.
func (h *nodeHost) InstallDependencies(
	req *pulumirpc.InstallDependenciesRequest,
	server grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse],
) error {
	opts, err := runtimeOptions(req.GetInfo().GetOptions())
	if err != nil {
		return err
	}
	return langhost.InstallDependencies(req, server, func(ctx context.Context, dir string, stdout, stderr io.Writer) error {
		if _, err := os.Stat(filepath.Join(dir, "package.json")); err != nil {
			return nil // nothing to install
		}
		manager, err := npm.ResolvePackageManager(opts.packageManager, dir)
		if err != nil {
			return err
		}
		if err := manager.Install(ctx, dir, false, stdout, stderr); err != nil {
			return fmt.Errorf("%s install in %s: %w", manager.Name(), dir, err)
		}
		return nil
	})
}

// Run executes the program with @pulumi/pulumi's own entry point, the way the SDK expects to be started.
func (h *nodeHost) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, errors.New("could not find node on the $PATH; install Node.js")
	}

	info := req.GetInfo()
	programDir := info.GetProgramDirectory()
	if programDir == "" {
		programDir = req.GetPwd()
	}
	rootDir := info.GetRootDirectory()
	if rootDir == "" {
		rootDir = req.GetPwd()
	}
	entryPoint := info.GetEntryPoint()
	if entryPoint == "" {
		entryPoint = req.GetProgram() //nolint:staticcheck // older engines
	}
	if entryPoint == "" {
		entryPoint = "."
	}
	opts, err := runtimeOptions(info.GetOptions())
	if err != nil {
		return nil, err
	}

	runPath, err := resolveModule(ctx, node, programDir, "@pulumi/pulumi/cmd/run")
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}

	args := append([]string{}, opts.nodeArgs...)
	args = append(args, runPath,
		"--monitor="+req.GetMonitorAddress(),
		"--engine="+h.Engine(),
		"--organization="+req.GetOrganization(),
		"--project="+req.GetProject(),
		"--stack="+req.GetStack(),
		"--root-directory="+rootDir,
		"--pwd="+programDir,
		"--parallel="+strconv.Itoa(int(req.GetParallel())),
	)
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	if h.tracing != "" {
		args = append(args, "--tracing="+h.tracing)
	}
	args = append(args, entryPoint)
	args = append(args, req.GetArgs()...)

	configEnv, err := langhost.ConfigEnv(req.GetConfig(), req.GetConfigSecretKeys())
	if err != nil {
		return nil, err
	}
	env := append(os.Environ(), configEnv...)
	env = append(env, "PULUMI_NODEJS_TYPESCRIPT="+strconv.FormatBool(opts.typescript))
	if opts.tsconfig != "" {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+opts.tsconfig)
	}

	cmd := exec.Command(node, args...)
	cmd.Dir = programDir
	cmd.Env = env
	return langhost.RunProgram(cmd), nil
}

type nodeOptions struct {
	typescript     bool
	tsconfig       string
	nodeArgs       []string
	packageManager npm.PackageManagerType
}

// runtimeOptions reads Pulumi.yaml's `runtime.options` (typescript, tsconfig, nodeargs, and
// packagemanager, which `pulumi new` writes).
func runtimeOptions(s *structpb.Struct) (nodeOptions, error) {
	values, err := langhost.ReadOptions(s,
		langhost.Option{Name: "typescript", Choices: []string{"true", "false"}},
		langhost.Option{Name: "tsconfig"},
		langhost.Option{Name: "nodeargs"},
		langhost.Option{Name: "packagemanager", Choices: []string{"npm", "yarn", "pnpm", "bun"}},
	)
	if err != nil {
		return nodeOptions{}, err
	}
	return nodeOptions{
		typescript: values["typescript"] != "false",
		tsconfig:   values["tsconfig"],
		nodeArgs:   strings.Fields(values["nodeargs"]),
		// npm when none is named, as this host always ran it.
		packageManager: npm.PackageManagerType(cmp.Or(values["packagemanager"], "npm")),
	}, nil
}

// resolveModule finds a module of @pulumi/pulumi (its cmd/run, cmd/run-policy-pack) as Node would from dir.
func resolveModule(ctx context.Context, node, dir, module string) (string, error) {
	cmd := exec.CommandContext(ctx, node, "-e",
		`process.stdout.write(require.resolve(process.argv[1], { paths: [process.cwd()] }))`, module)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("could not find %s from %s (is @pulumi/pulumi installed? run npm install): %v\n%s",
			module, dir, err, strings.TrimSpace(stderr.String()))
	}
	return filepath.Dir(strings.TrimSpace(string(out))), nil
}
