// Command pulumi-language-python is this repo's Python language host: it runs Pulumi programs
// written in Python on the `pulumi` package from PyPI, and generates Python code (SDKs, imports).
//
// Why it exists: Pulumi's own host is the Go module
// github.com/pulumi/pulumi/sdk/python/cmd/pulumi-language-python/v3, which the Go module proxy
// reachable from our machines refuses (403), so it cannot be built offline. Everything it builds on
// is served: the Python toolchain helpers (github.com/pulumi/pulumi/sdk/v3/python/toolchain: virtual
// environments, pip) and the Python code generator (github.com/pulumi/pulumi/pkg/v3/codegen/python).
//
// What it serves (the LanguageRuntime gRPC service):
//   - Run: the program, with the Python of its virtual environment (Pulumi.yaml `runtime.options.virtualenv`,
//     relative to the project's folder) or python3 from PATH when none is named, through the exec shim
//     (exec.py, embedded here and written to a private folder when the host starts), which configures
//     pulumi.runtime from the request and runs __main__.py inside the root stack.
//   - InstallDependencies (`pulumi install`, and `pulumi up` on a fresh checkout): creates the virtual
//     environment and runs `pip install -r requirements.txt` in it.
//   - GetRequiredPlugins / GetRequiredPackages: the resource plugins of the installed packages that
//     carry a pulumi-plugin.json (as generated SDKs do), so the engine loads the plugin the SDK was
//     made for.
//   - GeneratePackage, GenerateProgram, GenerateProject (codegen.go): `pulumi package gen-sdk
//     --language python`, the code `pulumi import` prints in a Python project, `pulumi convert`.
//   - GetProgramDependencies, About, GetPluginInfo, RuntimeOptionsPrompts.
//
// Not served (the gRPC "unimplemented" error): RunPlugin (providers and policy packs written in
// Python), Pack, Link.
//
// Credit: the behaviour mirrors Pulumi's own host (pulumi/pulumi, sdk/python/cmd/pulumi-language-python,
// Apache-2.0), written anew here: the runtime options (virtualenv, toolchain), the shim's arguments,
// PULUMI_CONFIG and PULUMI_CONFIG_SECRET_KEYS, exit code 32 answered with Bail, the messages "program
// exited with non-zero exit code: %d" and "problem executing program (could not run language
// executor)", and reading pulumi-plugin.json from each installed package.
package main

import (
	"context"
	_ "embed"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
)

// version and buildID are stamped by tools/install-pulumi.sh (-X main.version=... -X main.buildID=...);
// `pulumi-language-python -version` prints them so the script can tell a stale build.
var (
	version = "3.274.1"
	buildID = "dev"
)

//go:embed exec.py
var execShim []byte

func main() {
	flags := flag.NewFlagSet("pulumi-language-python", flag.ContinueOnError)
	// Flags the engine may pass to any plugin (see buildPluginArguments in the sdk), and the official
	// host's own; accepted, mostly unused (the virtual environment comes with each request now).
	tracing := flags.String("tracing", "", "Emit tracing to a Zipkin-compatible tracing endpoint")
	_ = flags.Bool("logtostderr", false, "log to stderr")
	_ = flags.Int("v", 0, "log verbosity")
	_ = flags.Bool("logflow", false, "flow logging to child processes")
	_ = flags.String("root", "", "[obsolete] project root")
	_ = flags.String("virtualenv", "", "[obsolete] virtual environment (now Pulumi.yaml's runtime.options)")
	givenExecutor := flags.String("use-executor", "", "run programs with this exec shim instead of the embedded one")
	printVersion := flags.Bool("version", false, "print the version and build id, then exit")
	if err := flags.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if *printVersion {
		fmt.Printf("%s+%s\n", version, buildID)
		return
	}
	engineAddress := ""
	if flags.NArg() > 0 {
		engineAddress = flags.Arg(0)
	}
	if err := serve(engineAddress, *tracing, *givenExecutor); err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-python: %v\n", err)
		os.Exit(1)
	}
}

func serve(engineAddress, tracing, givenExecutor string) error {
	shim := givenExecutor
	if shim == "" {
		dir, err := os.MkdirTemp("", "pulumi-language-python-")
		if err != nil {
			return fmt.Errorf("creating the exec shim's folder: %w", err)
		}
		defer os.RemoveAll(dir)
		shim = filepath.Join(dir, "pulumi-language-python-exec.py")
		if err := os.WriteFile(shim, execShim, 0o600); err != nil {
			return fmt.Errorf("writing the exec shim: %w", err)
		}
	}

	// The engine starts this host in a process group of its own: a `kill -9` of the engine's group
	// leaves it running. Like Pulumi's hosts it watches the engine (rpcutil.Healthcheck) and stops
	// once the engine stops answering, every second (as our Node.js host does).
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cancelChannel := make(chan bool)
	go func() {
		<-ctx.Done()
		close(cancelChannel)
	}()
	if engineAddress != "" {
		if err := rpcutil.Healthcheck(ctx, engineAddress, time.Second, cancel); err != nil {
			return fmt.Errorf("could not watch the engine: %w", err)
		}
	}

	host := &pythonHost{engineAddress: engineAddress, tracing: tracing, shim: shim}
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: cancelChannel,
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, host)
			return nil
		},
	})
	if err != nil {
		return err
	}
	// The engine reads the port from our first line of stdout.
	fmt.Printf("%d\n", handle.Port)
	return <-handle.Done
}

type pythonHost struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
	engineAddress string
	tracing       string
	shim          string // the exec shim's path
}

func (h *pythonHost) Handshake(
	_ context.Context, req *pulumirpc.LanguageHandshakeRequest,
) (*pulumirpc.LanguageHandshakeResponse, error) {
	if req.GetEngineAddress() != "" {
		h.engineAddress = req.GetEngineAddress()
	}
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}
