// Command pulumi-language-go is this repo's Go language host: it builds and runs Pulumi programs
// written in Go, and generates Go (SDKs from a package schema, programs from `pulumi import`).
//
// Why it exists: Pulumi's own host lives in the Go module
// github.com/pulumi/pulumi/sdk/go/pulumi-language-go/v3, which the Go module proxy reachable from
// our machines refuses (403), so it cannot be built offline. Everything it needs (the gRPC
// protocol, the code generators) is in github.com/pulumi/pulumi/{sdk,pkg}/v3, which are served.
//
// What it does (the LanguageRuntime service):
//   - Run (run.go): `go build` of the program's folder into the host's own cache folder, removed after
//     the run (or the prebuilt binary named by Pulumi.yaml's runtime.options.binary;
//     runtime.options.buildTarget keeps the build), then runs it with the PULUMI_* variables
//     github.com/pulumi/pulumi/sdk/v3/go/pulumi reads (pulumi.Run's getEnvInfo).
//   - GetRequiredPackages, InstallDependencies (`go mod download`, or `go mod tidy` when `go mod tidy
//     -diff` shows missing requirements), GetProgramDependencies, Link (a local SDK as a replaced
//     module) (packages.go).
//   - GeneratePackage (`pulumi package gen-sdk --language go`), GenerateProgram (`pulumi import`),
//     GenerateProject (`pulumi convert --language go`) (codegen.go): pkg/v3/codegen/go.
//   - About; Handshake, GetPluginInfo, RuntimeOptionsPrompts and the process around them are
//     cmd/internal/langhost's (flags, -version, serving until the engine stops), as is what Run does
//     once the program is built (its config, exit code and messages).
//
// Not implemented (the gRPC "unimplemented" error): RunPlugin (providers or policy packs written in
// Go), Pack, GetRequiredPlugins (as Pulumi's Go host: engines ask GetRequiredPackages), and
// attaching a debugger.
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
	"os/exec"
	"strings"

	"asset-delivery-as-code/tools/pulumi-cli/cmd/internal/langhost"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// version and buildID are stamped by tools/install-pulumi.sh (-X main.version=... -X main.buildID=...);
// `pulumi-language-go -version` prints them so the script can tell a stale build.
var (
	version = "3.274.1"
	buildID = "dev"
)

func main() {
	langhost.Main(langhost.Host{
		Name:    "pulumi-language-go",
		Version: version,
		BuildID: buildID,
		Flags: func(flags *flag.FlagSet) {
			// Still accepted by Pulumi's Go host, though obsolete.
			_ = flags.String("binary", "", "[obsolete] use runtime.options.binary in Pulumi.yaml")
			_ = flags.String("buildTarget", "", "[obsolete] use runtime.options.buildTarget in Pulumi.yaml")
		},
		// Go programs take no tracing setting from their environment (pulumi.Run's getEnvInfo).
		New: func(engineAddress, _ string) (pulumirpc.LanguageRuntimeServer, func(), error) {
			return &goHost{Runtime: langhost.NewRuntime(version, engineAddress)}, nil, nil
		},
	})
}

type goHost struct {
	*langhost.Runtime // Handshake, GetPluginInfo, RuntimeOptionsPrompts, the engine's address
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
