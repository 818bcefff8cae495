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
//     (exec.py, embedded here and written once into the host's own cache folder when the host starts), which configures
//     pulumi.runtime from the request and runs __main__.py inside the root stack; first the
//     `typechecker` (mypy, pyright) when Pulumi.yaml names one. pyright and `toolchain: poetry|uv`
//     (Pulumi's toolchains from the sdk's package) are untested here: this repo installs none of them.
//   - InstallDependencies (`pulumi install`, and `pulumi up` on a fresh checkout): creates the virtual
//     environment and runs `pip install -r requirements.txt` in it.
//   - GetRequiredPlugins / GetRequiredPackages: the resource plugins of the installed packages that
//     carry a pulumi-plugin.json (as generated SDKs do), so the engine loads the plugin the SDK was
//     made for; before a first run, they make the virtual environment (`pulumi up` on a fresh checkout).
//   - GeneratePackage, GenerateProgram, GenerateProject, Link (codegen.go): `pulumi package gen-sdk
//     --language python`, the code `pulumi import` prints in a Python project, `pulumi convert`,
//     `pulumi package add` (a generated SDK added to requirements.txt).
//   - GetProgramDependencies, About, GetPluginInfo, RuntimeOptionsPrompts.
//
// Not served (the gRPC "unimplemented" error): RunPlugin (providers and policy packs written in
// Python), Pack.
//
// Credit: the behaviour mirrors Pulumi's own host (pulumi/pulumi, sdk/python/cmd/pulumi-language-python,
// Apache-2.0), written anew here: the runtime options (virtualenv, toolchain, typechecker), the shim's
// arguments, and reading pulumi-plugin.json from each installed package; the config, the exit code
// and the messages of Run are cmd/internal/langhost's, shared by every host of this repo.
package main

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"asset-delivery-as-code/tools/pulumi-cli/cmd/internal/langhost"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// version and buildID are stamped by tools/install-pulumi.sh (-X main.version=... -X main.buildID=...).
var (
	version = "3.274.1"
	buildID = "dev"
)

//go:embed exec.py
var execShim []byte

func main() {
	var givenExecutor *string
	langhost.Main(langhost.Host{
		Name:    "pulumi-language-python",
		Version: version,
		BuildID: buildID,
		Flags: func(flags *flag.FlagSet) {
			_ = flags.String("virtualenv", "", "[obsolete] virtual environment (now Pulumi.yaml's runtime.options)")
			givenExecutor = flags.String("use-executor", "", "run programs with this exec shim instead of the embedded one")
		},
		New: func(engineAddress, tracing string) (pulumirpc.LanguageRuntimeServer, func(), error) {
			host := &pythonHost{Runtime: langhost.NewRuntime(version, engineAddress), tracing: tracing, shim: *givenExecutor}
			if host.shim != "" {
				return host, nil, nil
			}
			shim, err := installShim()
			if err != nil {
				return nil, nil, err
			}
			host.shim, host.ownShim = shim, true
			return host, nil, nil
		},
	})
}

// installShim writes the embedded exec shim once per content into the host's own folder (see
// langhost.OwnedFolder: private, checked, never a shared temporary one) and returns its path. Not a
// folder per start removed at exit: the engine ends a language host with SIGKILL, so such folders
// were never removed (hundreds piled up in /tmp during a test run).
func installShim() (string, error) {
	dir, err := langhost.OwnedFolder("pulumi-language-python")
	if err != nil {
		return "", fmt.Errorf("the exec shim's folder: %w", err)
	}
	sum := sha256.Sum256(execShim)
	path := filepath.Join(dir, fmt.Sprintf("pulumi-language-python-exec-%x.py", sum[:8]))
	if existing, err := os.ReadFile(path); err == nil && bytes.Equal(existing, execShim) {
		return path, nil
	}
	// Written beside, then renamed: hosts starting side by side never run a half-written shim.
	tmp, err := os.CreateTemp(dir, "exec-*.tmp")
	if err != nil {
		return "", fmt.Errorf("writing the exec shim: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(execShim); err != nil {
		tmp.Close()
		return "", fmt.Errorf("writing the exec shim: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return "", fmt.Errorf("writing the exec shim: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return "", fmt.Errorf("writing the exec shim: %w", err)
	}
	return path, nil
}

type pythonHost struct {
	*langhost.Runtime // Handshake, GetPluginInfo, RuntimeOptionsPrompts, the engine's address
	tracing           string
	shim              string // the exec shim's path
	ownShim           bool   // the shim is the embedded one, in the host's own folder (not -use-executor's)
}
