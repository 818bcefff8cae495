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
// InstallDependencies runs `npm install`, About and GetPluginInfo answer.
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
// sdk/nodejs/cmd/pulumi-language-nodejs/main.go, Apache-2.0), written anew here: the exit code 32
// that @pulumi/pulumi's run script uses after it has reported an error (answered with Bail, so
// nothing more is printed), and the messages "Program exited with non-zero exit code: %d",
// "Program exited due to a signal", "Problem executing program (could not run language executor)"
// and "could not find node on the $PATH".
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"asset-delivery-as-code/tools/pulumi-cli/cmd/internal/langhost"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"
)

// version and buildID are stamped by tools/install-pulumi.sh (-X main.version=... -X main.buildID=...);
// `pulumi-language-nodejs -version` prints them so the script can tell a stale build.
var (
	version = "3.274.1"
	buildID = "dev"
)

// exitCodeErrorAlreadyReported is what @pulumi/pulumi/cmd/run exits with after it has logged a
// user-actionable error through the engine (nodeJSProcessExitedAfterLoggingUserActionableMessage).
const exitCodeErrorAlreadyReported = 32

func main() {
	langhost.Main(langhost.Host{
		Name:    "pulumi-language-nodejs",
		Version: version,
		BuildID: buildID,
		New: func(engineAddress, tracing string) (pulumirpc.LanguageRuntimeServer, func(), error) {
			return &nodeHost{engineAddress: engineAddress, tracing: tracing}, nil, nil
		},
	})
}

type nodeHost struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
	engineAddress string
	tracing       string
}

func (h *nodeHost) Handshake(
	_ context.Context, req *pulumirpc.LanguageHandshakeRequest,
) (*pulumirpc.LanguageHandshakeResponse, error) {
	if req.GetEngineAddress() != "" {
		h.engineAddress = req.GetEngineAddress()
	}
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (h *nodeHost) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version}, nil
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

func (h *nodeHost) RuntimeOptionsPrompts(
	context.Context, *pulumirpc.RuntimeOptionsRequest,
) (*pulumirpc.RuntimeOptionsResponse, error) {
	return &pulumirpc.RuntimeOptionsResponse{}, nil
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

// InstallDependencies runs `npm install` in the program's folder, streaming its output.
func (h *nodeHost) InstallDependencies(
	req *pulumirpc.InstallDependenciesRequest,
	server grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse],
) error {
	dir := req.GetInfo().GetProgramDirectory()
	if dir == "" {
		dir = req.GetDirectory() //nolint:staticcheck // older engines
	}
	if _, err := os.Stat(filepath.Join(dir, "package.json")); err != nil {
		return nil // nothing to install
	}
	cmd := exec.Command("npm", "install")
	cmd.Dir = dir
	cmd.Stdout = streamWriter(func(b []byte) error {
		return server.Send(&pulumirpc.InstallDependenciesResponse{Stdout: b})
	})
	cmd.Stderr = streamWriter(func(b []byte) error {
		return server.Send(&pulumirpc.InstallDependenciesResponse{Stderr: b})
	})
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("npm install in %s: %w", dir, err)
	}
	return nil
}

type streamWriter func([]byte) error

func (w streamWriter) Write(p []byte) (int, error) {
	if err := w(bytes.Clone(p)); err != nil {
		return 0, err
	}
	return len(p), nil
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
	opts := runtimeOptions(info.GetOptions())

	runPath, err := resolveModule(ctx, node, programDir, "@pulumi/pulumi/cmd/run")
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}

	args := append([]string{}, opts.nodeArgs...)
	args = append(args, runPath,
		"--monitor="+req.GetMonitorAddress(),
		"--engine="+h.engineAddress,
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

	configJSON, err := json.Marshal(req.GetConfig())
	if err != nil {
		return nil, err
	}
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	secretKeysJSON, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, err
	}
	env := append(os.Environ(),
		"PULUMI_CONFIG="+string(configJSON),
		"PULUMI_CONFIG_SECRET_KEYS="+string(secretKeysJSON),
		"PULUMI_NODEJS_TYPESCRIPT="+strconv.FormatBool(opts.typescript),
	)
	if opts.tsconfig != "" {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+opts.tsconfig)
	}

	cmd := exec.Command(node, args...)
	cmd.Dir = programDir
	cmd.Env = env
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			if status, ok := exitErr.Sys().(syscall.WaitStatus); ok && status.Signaled() {
				return &pulumirpc.RunResponse{Error: fmt.Sprintf("Program exited due to a signal: %v", status.Signal())}, nil
			}
			if exitErr.ExitCode() == exitCodeErrorAlreadyReported {
				return &pulumirpc.RunResponse{Bail: true}, nil
			}
			return &pulumirpc.RunResponse{
				Error: fmt.Sprintf("Program exited with non-zero exit code: %d", exitErr.ExitCode()),
			}, nil
		}
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("Problem executing program (could not run language executor): %v", err)}, nil
	}
	return &pulumirpc.RunResponse{}, nil
}

type nodeOptions struct {
	typescript bool
	tsconfig   string
	nodeArgs   []string
}

// runtimeOptions reads Pulumi.yaml's `runtime.options` (typescript, tsconfig, nodeargs).
func runtimeOptions(s *structpb.Struct) nodeOptions {
	opts := nodeOptions{typescript: true}
	if s == nil {
		return opts
	}
	fields := s.GetFields()
	if v, ok := fields["typescript"]; ok {
		switch x := v.GetKind().(type) {
		case *structpb.Value_BoolValue:
			opts.typescript = x.BoolValue
		case *structpb.Value_StringValue:
			opts.typescript = x.StringValue != "false"
		}
	}
	if v, ok := fields["tsconfig"]; ok {
		opts.tsconfig = v.GetStringValue()
	}
	if v, ok := fields["nodeargs"]; ok {
		opts.nodeArgs = strings.Fields(v.GetStringValue())
	}
	return opts
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
