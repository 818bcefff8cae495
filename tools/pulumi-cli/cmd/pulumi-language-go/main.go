// Command pulumi-language-go is this repo's Go language host: it builds and runs Pulumi programs
// written in Go, and generates Go (SDKs from a package schema, programs from `pulumi import`).
//
// Why it exists: Pulumi's own host lives in the Go module
// github.com/pulumi/pulumi/sdk/go/pulumi-language-go/v3, which the Go module proxy reachable from
// our machines refuses (403), so it cannot be built offline. Everything it needs (the gRPC
// protocol, the code generators) is in github.com/pulumi/pulumi/{sdk,pkg}/v3, which are served.
//
// What it does (the LanguageRuntime service):
//   - Run (run.go): `go build` in the program's folder (or the prebuilt binary named by Pulumi.yaml's
//     runtime.options.binary; runtime.options.buildTarget keeps the build), then runs it with the
//     PULUMI_* variables github.com/pulumi/pulumi/sdk/v3/go/pulumi reads (run.go's getEnvInfo).
//   - GetRequiredPackages, InstallDependencies (`go mod download`), GetProgramDependencies (packages.go).
//   - GeneratePackage (`pulumi package gen-sdk --language go`), GenerateProgram (`pulumi import`,
//     `pulumi convert`), GenerateProject (codegen.go): Pulumi's own generator, pkg/v3/codegen/go.
//   - Handshake, GetPluginInfo, About, RuntimeOptionsPrompts.
//
// Not implemented (the gRPC "unimplemented" error): RunPlugin (providers or policy packs written in
// Go), Pack, Link, and attaching a debugger.
//
// Credit: what the engine and users see mirrors Pulumi's own host (pulumi/pulumi,
// sdk/go/pulumi-language-go/main.go, Apache-2.0), written anew here: the build and run steps and
// their error messages ("error in compiling Go", "program exited with non-zero exit code: %d"),
// the exit code 32 a Go program uses after reporting its error to the engine (answered with Bail),
// the environment, how required packages are found (pulumi-plugin.json beside a module's source),
// and the code generation requests.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
)

// version and buildID are stamped by tools/install-pulumi.sh (-X main.version=... -X main.buildID=...);
// `pulumi-language-go -version` prints them so the script can tell a stale build.
var (
	version = "3.274.1"
	buildID = "dev"
)

func main() {
	flags := flag.NewFlagSet("pulumi-language-go", flag.ContinueOnError)
	// Flags the engine may pass to any plugin (see buildPluginArguments in the sdk), and the ones
	// Pulumi's Go host still accepts though obsolete; accepted, mostly unused.
	tracing := flags.String("tracing", "", "Emit tracing to a Zipkin-compatible tracing endpoint")
	_ = flags.Bool("logtostderr", false, "log to stderr")
	_ = flags.Int("v", 0, "log verbosity")
	_ = flags.Bool("logflow", false, "flow logging to child processes")
	_ = flags.String("root", "", "[obsolete] project root")
	_ = flags.String("binary", "", "[obsolete] use runtime.options.binary in Pulumi.yaml")
	_ = flags.String("buildTarget", "", "[obsolete] use runtime.options.buildTarget in Pulumi.yaml")
	printVersion := flags.Bool("version", false, "print the version and build id, then exit")
	if err := flags.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if *printVersion {
		fmt.Printf("%s+%s\n", version, buildID)
		return
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancelChannel := make(chan bool)
	go func() {
		<-ctx.Done()
		close(cancelChannel)
	}()
	host := &goHost{tracing: *tracing, stop: cancel}
	if flags.NArg() > 0 {
		if err := host.watchEngine(ctx, flags.Arg(0)); err != nil {
			fmt.Fprintf(os.Stderr, "pulumi-language-go: %v\n", err)
			os.Exit(1)
		}
	}

	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: cancelChannel,
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, host)
			return nil
		},
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-go: could not start language host RPC server: %v\n", err)
		os.Exit(1)
	}
	// The engine reads the port from our first line of stdout.
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-go: language host RPC stopped serving: %v\n", err)
		os.Exit(1)
	}
}

type goHost struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
	tracing string
	stop    context.CancelFunc

	mu            sync.Mutex
	engineAddress string
}

// watchEngine records the engine's address and stops the host once the engine stops answering.
// The engine starts hosts in a process group of their own, so a `kill -9` of the engine's group (a
// cancelled CI job) leaves this one running; Pulumi's hosts check every five minutes, this one
// every second (as our Node.js host), so nothing of a killed run outlives it by more than seconds.
func (h *goHost) watchEngine(ctx context.Context, address string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.engineAddress != "" {
		return nil
	}
	if err := rpcutil.Healthcheck(ctx, address, time.Second, h.stop); err != nil {
		return fmt.Errorf("could not start health check host RPC server: %w", err)
	}
	h.engineAddress = address
	return nil
}

func (h *goHost) engine() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.engineAddress
}

func (h *goHost) Handshake(
	ctx context.Context, req *pulumirpc.LanguageHandshakeRequest,
) (*pulumirpc.LanguageHandshakeResponse, error) {
	if req.GetEngineAddress() == "" {
		return nil, fmt.Errorf("Must contain address in request") //nolint:staticcheck // Pulumi's host's words
	}
	if err := h.watchEngine(context.Background(), req.GetEngineAddress()); err != nil {
		return nil, err
	}
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (h *goHost) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version}, nil
}

func (h *goHost) RuntimeOptionsPrompts(
	context.Context, *pulumirpc.RuntimeOptionsRequest,
) (*pulumirpc.RuntimeOptionsResponse, error) {
	return &pulumirpc.RuntimeOptionsResponse{}, nil
}

func (h *goHost) About(context.Context, *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	gobin, err := findGo()
	if err != nil {
		return nil, err
	}
	out, err := exec.Command(gobin, "version").Output()
	if err != nil {
		return nil, fmt.Errorf("failed to execute '%s version'", gobin)
	}
	return &pulumirpc.AboutResponse{
		Executable: gobin,
		Version:    strings.TrimSpace(string(out)),
		Metadata:   map[string]string{"languageHost": "asset-delivery " + version},
	}, nil
}
