// RunPlugin: how the engine starts a Node.js policy pack (`pulumi preview --policy-pack DIR`, where
// DIR holds a PulumiPolicy.yaml with `runtime: nodejs`). Since the CLI finds a language host for the
// pack's runtime, it no longer looks for the old `pulumi-analyzer-policy` script: it asks the host
// to run the pack as a plugin of kind "analyzer" and talks to the gRPC server the pack prints the
// port of.
//
// Credit: this mirrors Pulumi's own host (pulumi/pulumi, sdk/nodejs/cmd/pulumi-language-nodejs,
// RunPlugin, Apache-2.0), written anew for the analyzer kind only: `node
// <@pulumi/pulumi/cmd/run-policy-pack> <engine> <pack dir>`, run in the pack's folder, behind the
// sdk's PolicyProxy, which answers the engine's Handshake and ConfigureStack itself and starts the
// pack with the stack's organization, project, stack, dry-run flag and config in the PULUMI_NODEJS_*
// and PULUMI_CONFIG variables that @pulumi/pulumi reads (as the old script's caller did), then
// forwards every other call to the pack. The error texts are theirs too.
//
// Other kinds (resource providers written as Node.js plugin projects) are not served here.
package main

import (
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"syscall"

	"asset-delivery-as-code/tools/pulumi-cli/cmd/internal/langhost"

	sdk "github.com/pulumi/pulumi/sdk/v3"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func (h *nodeHost) RunPlugin(
	req *pulumirpc.RunPluginRequest, server grpc.ServerStreamingServer[pulumirpc.RunPluginResponse],
) error {
	if req.GetKind() != string(apitype.AnalyzerPlugin) {
		return status.Errorf(codes.Unimplemented,
			"this Node.js language host runs policy packs only, not %s plugins", req.GetKind())
	}
	ctx := server.Context()
	node, err := exec.LookPath("node")
	if err != nil {
		return errors.New("could not find node on the $PATH; install Node.js")
	}
	packDir := req.GetInfo().GetProgramDirectory()
	opts, err := runtimeOptions(req.GetInfo().GetOptions())
	if err != nil {
		return err
	}

	closer, stdout, stderr, err := rpcutil.MakeRunPluginStreams(server, false)
	if err != nil {
		return err
	}
	defer closer.Close()

	runPath, err := resolveModule(ctx, node, packDir, "@pulumi/pulumi/cmd/run-policy-pack")
	if err != nil {
		return err
	}
	args := append([]string{}, opts.nodeArgs...)
	args = append(args, runPath)
	args = append(args, req.GetArgs()...) // the engine's address
	args = append(args, packDir)          // the pack's program, last for analyzers

	env := append([]string{}, req.GetEnv()...)
	if opts.typescript {
		env = append(env, "PULUMI_NODEJS_TYPESCRIPT=true")
	}
	if opts.tsconfig != "" {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+opts.tsconfig)
	}

	// The proxy prints its own port first (the engine connects to it), then waits for the stack's
	// configuration before the pack is started with it.
	proxy, stdout, err := sdk.NewPolicyProxy(ctx, stdout)
	if err != nil {
		return fmt.Errorf("could not start policy pack proxy: %w", err)
	}
	config, err := proxy.AwaitConfiguration(ctx)
	if err != nil {
		return fmt.Errorf("could not get stack configuration: %w", err)
	}
	if config != nil {
		appendIfSet := func(key, value string) {
			if value != "" {
				env = append(env, key+"="+value)
			}
		}
		appendIfSet("PULUMI_NODEJS_ORGANIZATION", config.GetOrganization())
		appendIfSet("PULUMI_NODEJS_PROJECT", config.GetProject())
		appendIfSet("PULUMI_NODEJS_STACK", config.GetStack())
		appendIfSet("PULUMI_NODEJS_DRY_RUN", strconv.FormatBool(config.GetDryRun()))
		configEnv, err := langhost.ConfigEnv(config.GetConfig(), config.GetConfigSecretKeys())
		if err != nil {
			return err
		}
		env = append(env, configEnv...)
	}

	cmd := exec.CommandContext(ctx, node, args...)
	// Policy packs have always run in their own folder, so that their node_modules are the ones used.
	cmd.Dir = packDir
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("Problem executing plugin program (could not run language executor): %w", err)
	}
	// Attach reads the pack's port from its stdout, forwards the engine's calls, and returns when it exits.
	if err := proxy.Attach(ctx, cmd); err != nil {
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			if status, ok := exitErr.Sys().(syscall.WaitStatus); ok {
				return fmt.Errorf("Program exited with non-zero exit code: %d", status.ExitStatus())
			}
			return fmt.Errorf("Program exited unexpectedly: %w", exitErr)
		}
		return fmt.Errorf("could not attach policy pack proxy: %w", err)
	}
	return closer.Close()
}
